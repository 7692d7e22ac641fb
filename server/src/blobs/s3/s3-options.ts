import { BlobConfigError } from '../errors.js'
import type { S3BlobStore, S3BlobStoreOptions } from './s3-blob-store.js'
import { storageErrorCode, storageHttpStatus, toBlobError } from './s3-errors.js'

// This module loads no AWS SDK code: the CLI parses the configuration of every command with it, and only a
// server that uses S3 pays for loading the SDK (about half a second and 20 MB), in openS3BlobStore.

/** The environment variables the blob configuration reads (a `process.env`-like record). */
export type BlobEnv = Readonly<Record<string, string | undefined>>

/** Input of {@link blobStoreOptionsFrom}. */
export interface BlobConfigSources {
  /**
   * The `--blobs` flag's value, when given; it wins over `BOTSHELF_BLOBS_URL`.
   *
   * @example
   * ```ts
   * blobStoreOptionsFrom({ flag: 's3://content/botshelf', env: process.env })
   * ```
   */
  flag?: string
  /**
   * The environment: `BOTSHELF_BLOBS_URL`, `BOTSHELF_S3_ENDPOINT`, `BOTSHELF_S3_FORCE_PATH_STYLE`,
   * `BOTSHELF_S3_PRESIGN`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_REGION`
   * (or `AWS_DEFAULT_REGION`).
   *
   * @example
   * ```ts
   * blobStoreOptionsFrom({ env: { BOTSHELF_BLOBS_URL: 's3://content', AWS_REGION: 'eu-west-3' } })
   * ```
   */
  env: BlobEnv
}

// S3's bucket naming rules (general purpose buckets): 3 to 63 lowercase letters, digits, dots and hyphens,
// starting and ending with a letter or digit.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/
// Key characters S3 calls safe; a prefix with anything else would need escaping everywhere it is shown.
const PREFIX_SEGMENT = /^[A-Za-z0-9!_.*'()-]+$/
const REGION = /^[a-z]{2}(-[a-z0-9]+)+$/

function parseBoolean(setting: string, raw: string | undefined): boolean | undefined {
  if (raw === undefined || raw === '') return undefined
  const value = raw.trim().toLowerCase()
  if (value === 'true' || value === '1') return true
  if (value === 'false' || value === '0') return false
  throw new BlobConfigError(setting, `expected true or false, received ${JSON.stringify(raw)}`)
}

function parseBlobsUrl(setting: string, raw: string): { bucket: string; prefix: string } {
  const example = 'such as s3://my-bucket or s3://my-bucket/botshelf/prod'
  if (!raw.startsWith('s3://')) throw new BlobConfigError(setting, `expected an s3:// URL ${example}, received ${JSON.stringify(raw)}`)
  const rest = raw.slice('s3://'.length)
  const slash = rest.indexOf('/')
  const bucket = slash === -1 ? rest : rest.slice(0, slash)
  const path = slash === -1 ? '' : rest.slice(slash + 1)
  if (bucket === '') throw new BlobConfigError(setting, `expected a bucket name after s3:// (${example}), received ${JSON.stringify(raw)}`)
  if (!BUCKET.test(bucket) || bucket.includes('..')) {
    throw new BlobConfigError(
      setting,
      `expected a bucket name of 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit, received ${JSON.stringify(bucket)}`,
    )
  }
  if (/[?#]/.test(path)) throw new BlobConfigError(setting, `expected no query or fragment after the prefix, received ${JSON.stringify(raw)}`)
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path
  const segments = trimmed === '' ? [] : trimmed.split('/')
  if (segments.includes('')) throw new BlobConfigError(setting, `expected a prefix without empty segments ('//'), received ${JSON.stringify(path)}`)
  for (const segment of segments) {
    if (!PREFIX_SEGMENT.test(segment) || segment === '.' || segment === '..') {
      throw new BlobConfigError(setting, `expected prefix segments of letters, digits and !_.*'()- (not . or ..), received ${JSON.stringify(segment)}`)
    }
  }
  return { bucket, prefix: segments.length > 0 ? `${segments.join('/')}/` : '' }
}

function parseEndpoint(setting: string, raw: string): string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new BlobConfigError(setting, `expected an http:// or https:// URL such as http://127.0.0.1:9000, received ${JSON.stringify(raw)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BlobConfigError(setting, `expected an http:// or https:// URL such as http://127.0.0.1:9000, received ${JSON.stringify(raw)}`)
  }
  if (url.username || url.password) throw new BlobConfigError(setting, 'expected a URL without user or password (credentials go in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)')
  if (url.search || url.hash) throw new BlobConfigError(setting, `expected a URL without query or fragment, received ${JSON.stringify(raw)}`)
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

/**
 * Reads the blob storage configuration: `--blobs` (the `flag`) or `BOTSHELF_BLOBS_URL` as
 * `s3://bucket/optional/prefix`, then `BOTSHELF_S3_ENDPOINT` (an S3-compatible service; AWS when unset),
 * `BOTSHELF_S3_FORCE_PATH_STYLE` (`true`/`false`; default `true` with an endpoint, `false` on AWS),
 * `BOTSHELF_S3_PRESIGN` (`true`: private files' temporary URLs are presigned S3 GETs; default `false`), and the usual
 * `AWS_REGION` (or `AWS_DEFAULT_REGION`; default `us-east-1`), `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
 * `AWS_SESSION_TOKEN` (both keys or neither: without them the AWS SDK's default chain finds credentials).
 * Returns `undefined` when no blobs URL is set (content stays in the data folder), or throws a
 * {@link BlobConfigError} naming the flag or variable, what was expected and what was received.
 *
 * @example
 * ```ts
 * const options = blobStoreOptionsFrom({ flag: args.blobs, env: process.env })
 * const blobs = options ? await openS3BlobStore(options) : createLocalFolderBlobStore({ root: dataFolder.content })
 * ```
 */
export function blobStoreOptionsFrom(sources: BlobConfigSources): S3BlobStoreOptions | undefined {
  const { env } = sources
  const fromFlag = sources.flag !== undefined
  const setting = fromFlag ? '--blobs' : 'BOTSHELF_BLOBS_URL'
  const raw = fromFlag ? sources.flag : env['BOTSHELF_BLOBS_URL']
  if (raw === undefined || (!fromFlag && raw.trim() === '')) return undefined
  const { bucket, prefix } = parseBlobsUrl(setting, raw.trim())

  const endpointRaw = env['BOTSHELF_S3_ENDPOINT']?.trim()
  const endpoint = endpointRaw ? parseEndpoint('BOTSHELF_S3_ENDPOINT', endpointRaw) : undefined
  const forcePathStyle = parseBoolean('BOTSHELF_S3_FORCE_PATH_STYLE', env['BOTSHELF_S3_FORCE_PATH_STYLE']) ?? endpoint !== undefined
  const presignDownloads = parseBoolean('BOTSHELF_S3_PRESIGN', env['BOTSHELF_S3_PRESIGN']) ?? false

  const regionSetting = env['AWS_REGION']?.trim() ? 'AWS_REGION' : 'AWS_DEFAULT_REGION'
  const region = env[regionSetting]?.trim() || 'us-east-1'
  if (!REGION.test(region)) throw new BlobConfigError(regionSetting, `expected a region name such as eu-west-3, received ${JSON.stringify(region)}`)

  const accessKeyId = env['AWS_ACCESS_KEY_ID']?.trim() || undefined
  const secretAccessKey = env['AWS_SECRET_ACCESS_KEY']?.trim() || undefined
  const sessionToken = env['AWS_SESSION_TOKEN']?.trim() || undefined
  if (accessKeyId && !secretAccessKey) throw new BlobConfigError('AWS_SECRET_ACCESS_KEY', 'expected a secret key, since AWS_ACCESS_KEY_ID is set; received nothing')
  if (secretAccessKey && !accessKeyId) throw new BlobConfigError('AWS_ACCESS_KEY_ID', 'expected an access key id, since AWS_SECRET_ACCESS_KEY is set; received nothing')

  return {
    bucket,
    prefix,
    region,
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle,
    presignDownloads,
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } } : {}),
  }
}

/**
 * Opens the S3 blob store (loading the AWS SDK on first use) and checks it can work before the service starts: the bucket exists and the
 * credentials may use it (HeadBucket), and, with presigned downloads, that credentials resolve. A failure is a
 * `BlobError` that says what to check (`BLOB_STORAGE_REFUSED` for the bucket, region or credentials,
 * `BLOB_STORAGE_UNAVAILABLE` when the endpoint does not answer).
 *
 * @example
 * ```ts
 * const blobs = await openS3BlobStore({ bucket: 'content', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true })
 * ```
 */
export async function openS3BlobStore(options: S3BlobStoreOptions): Promise<S3BlobStore> {
  const [{ createS3BlobStore }, { HeadBucketCommand }] = await Promise.all([import('./s3-blob-store.js'), import('@aws-sdk/client-s3')])
  const store = createS3BlobStore(options)
  try {
    await store.client.send(new HeadBucketCommand({ Bucket: options.bucket }))
    if (options.presignDownloads) await store.refreshSigningCredentials()
  } catch (error) {
    store.close()
    const status = storageHttpStatus(error)
    if (status === 404 || storageErrorCode(error) === 'NoSuchBucket') {
      throw toBlobError(Object.assign(new Error(`bucket ${options.bucket} does not exist`), { name: 'NoSuchBucket', $metadata: { httpStatusCode: 404 } }), 'HeadBucket')
    }
    throw toBlobError(error, 'HeadBucket')
  }
  return store
}
