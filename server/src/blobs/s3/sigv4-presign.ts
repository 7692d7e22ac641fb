import { createHash, createHmac } from 'node:crypto'

/** The static credentials a presigned URL is signed with. */
export interface SigningCredentials {
  accessKeyId: string
  secretAccessKey: string
  /** Present for temporary credentials (STS, instance roles); sent as `X-Amz-Security-Token`. */
  sessionToken?: string
}

/** What {@link presignS3Get} signs. */
export interface PresignS3GetInput {
  /** The object's URL without query: scheme, host (and port), and the path with each segment already encoded. */
  objectUrl: URL
  region: string
  credentials: SigningCredentials
  /** The signing instant (the service's clock). */
  now: Date
  /** Lifetime in seconds, 1 to 604 800 (seven days, the most SigV4 accepts). */
  expiresInSeconds: number
  /** Extra query parameters, signed with the rest (`response-content-type`, ...). */
  query: Record<string, string>
}

/** The longest lifetime a SigV4 query signature accepts: seven days. */
export const MAX_PRESIGN_SECONDS = 604_800

/**
 * Percent-encodes as SigV4 wants (RFC 3986 unreserved characters kept, everything else `%XX` in upper case).
 *
 * @example
 * ```ts
 * sigV4Encode("a b/c*") // 'a%20b%2Fc%2A'
 * ```
 */
export function sigV4Encode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
}

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex')
const hmac = (key: Buffer | string, text: string): Buffer => createHmac('sha256', key).update(text, 'utf8').digest()

/**
 * The SigV4 signing key of one day, region and service (`kSigning` of the AWS documentation).
 *
 * @example
 * ```ts
 * sigV4SigningKey('SECRET', '20260102', 'eu-west-3', 's3').toString('hex')
 * ```
 */
export function sigV4SigningKey(secretAccessKey: string, day: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, day), region), service), 'aws4_request')
}

/** `20260102T030405Z`: the SigV4 timestamp form of an instant (seconds, UTC). */
function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
}

/**
 * Signs a GET of an S3 object into a query-string-authenticated URL (SigV4, unsigned payload, `host` the only
 * signed header), the same URL the AWS SDK's presigner makes for `GetObject`. Synchronous on purpose: a file's
 * temporary URL is built while its wire form is, with credentials the store already holds.
 *
 * @example
 * ```ts
 * presignS3Get({
 *   objectUrl: new URL('https://bucket.s3.eu-west-3.amazonaws.com/blobs/blob_0123'),
 *   region: 'eu-west-3', credentials: { accessKeyId: 'AKID', secretAccessKey: 'SECRET' },
 *   now: new Date(), expiresInSeconds: 900, query: { 'response-content-type': 'text/plain' },
 * })
 * ```
 */
export function presignS3Get(input: PresignS3GetInput): string {
  const { objectUrl, region, credentials } = input
  if (!Number.isInteger(input.expiresInSeconds) || input.expiresInSeconds < 1 || input.expiresInSeconds > MAX_PRESIGN_SECONDS) {
    throw new RangeError(`expiresInSeconds: expected an integer from 1 to ${MAX_PRESIGN_SECONDS}, received ${input.expiresInSeconds}`)
  }
  const timestamp = amzDate(input.now)
  const day = timestamp.slice(0, 8)
  const scope = `${day}/${region}/s3/aws4_request`
  const params: Record<string, string> = {
    ...input.query,
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD',
    'X-Amz-Credential': `${credentials.accessKeyId}/${scope}`,
    'X-Amz-Date': timestamp,
    'X-Amz-Expires': String(input.expiresInSeconds),
    'X-Amz-SignedHeaders': 'host',
    'x-id': 'GetObject',
  }
  if (credentials.sessionToken) params['X-Amz-Security-Token'] = credentials.sessionToken
  const canonicalQuery = sortedQuery(params)
  const canonicalRequest = ['GET', objectUrl.pathname, canonicalQuery, `host:${objectUrl.host}`, '', 'host', 'UNSIGNED-PAYLOAD'].join('\n')
  const stringToSign = ['AWS4-HMAC-SHA256', timestamp, scope, sha256Hex(canonicalRequest)].join('\n')
  const signature = createHmac('sha256', sigV4SigningKey(credentials.secretAccessKey, day, region, 's3')).update(stringToSign, 'utf8').digest('hex')
  // The signature goes in its sorted place, as the SDK's presigner puts it: the two URLs stay comparable.
  return `${objectUrl.origin}${objectUrl.pathname}?${sortedQuery({ ...params, 'X-Amz-Signature': signature })}`
}

/** The SigV4 canonical query string: names and values encoded, sorted by name (then value). */
function sortedQuery(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([name, value]) => [sigV4Encode(name), sigV4Encode(value)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&')
}
