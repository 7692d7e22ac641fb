import { createHash, createHmac } from 'node:crypto'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createS3BlobStore } from './s3-blob-store.js'
import { sigV4Encode, sigV4SigningKey } from './sigv4-presign.js'
import { bytesOf } from './bytes.test-support.js'

/** A request as the S3 client put it on the wire, after signing. */
interface CapturedRequest {
  method: string
  hostname: string
  port?: number
  path: string
  query: Record<string, string | string[] | null>
  headers: Record<string, string>
}

/** An HTTP layer that records each signed request and answers 204, so no server is involved. */
function capturingHandler(captured: CapturedRequest[]) {
  return {
    async handle(request: CapturedRequest) {
      captured.push(structuredClone({ method: request.method, hostname: request.hostname, port: request.port, path: request.path, query: request.query, headers: request.headers }))
      return { response: { statusCode: 204, headers: {}, body: Readable.from([]) } }
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs: () => ({}),
  }
}

/** Recomputes a SigV4 header signature from the captured request alone, as S3 does on its side. */
function expectedSignature(request: CapturedRequest, signedHeaders: string[], scope: { day: string; region: string }, secret: string): string {
  const canonicalQuery = Object.entries(request.query)
    .flatMap(([name, value]) => (Array.isArray(value) ? value.map((v) => [name, v] as const) : [[name, value ?? ''] as const]))
    .map(([name, value]) => `${sigV4Encode(name)}=${sigV4Encode(value)}`)
    .sort()
    .join('&')
  const header = (name: string): string => Object.entries(request.headers).find(([key]) => key.toLowerCase() === name)?.[1]?.trim() ?? ''
  const canonicalHeaders = signedHeaders.map((name) => `${name}:${header(name)}\n`).join('')
  const canonicalRequest = [request.method, request.path, canonicalQuery, canonicalHeaders, signedHeaders.join(';'), header('x-amz-content-sha256')].join('\n')
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    header('x-amz-date'),
    `${scope.day}/${scope.region}/s3/aws4_request`,
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n')
  return createHmac('sha256', sigV4SigningKey(secret, scope.day, scope.region, 's3')).update(stringToSign).digest('hex')
}

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([a-z0-9-]+)\/s3\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/

describe('request signing (SigV4, checked without a server: the test server verifies no signature)', () => {
  it('signs every request with the region, the s3 service, the payload hash and a signature S3 would recompute', async () => {
    const captured: CapturedRequest[] = []
    const blobs = createS3BlobStore({
      bucket: 'content',
      prefix: 'app/',
      region: 'eu-west-3',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
      requestHandler: capturingHandler(captured),
    })
    await blobs.delete('blob_0123456789abcdef0123456789abcdef')
    await blobs.write(bytesOf('hello'), { expectedBytes: 5 })
    expect(captured.map((r) => r.method)).toEqual(['DELETE', 'PUT'])
    for (const request of captured) {
      const match = AUTHORIZATION.exec(request.headers['authorization'] ?? '')
      expect(match, request.headers['authorization']).not.toBeNull()
      const [, accessKey, day, region, signedHeaderList, signature] = match as unknown as string[]
      expect(accessKey).toBe('AKIDEXAMPLE')
      expect(region).toBe('eu-west-3')
      expect(day).toBe(request.headers['x-amz-date']?.slice(0, 8))
      const signedHeaders = (signedHeaderList ?? '').split(';')
      expect(signedHeaders).toEqual(expect.arrayContaining(['host', 'x-amz-content-sha256', 'x-amz-date']))
      expect(signedHeaders).toEqual([...signedHeaders].sort())
      expect(signature).toBe(expectedSignature(request, signedHeaders, { day: day ?? '', region: region ?? '' }, 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY'))
    }
    const put = captured[1]
    expect(put?.path).toMatch(/^\/content\/app\/blobs\/blob_[0-9a-f]{32}$/)
    expect(put?.headers['x-amz-content-sha256']).toBe(createHash('sha256').update('hello').digest('hex'))
    blobs.close()
  })

  it('signs the session token of temporary credentials, and addresses the bucket in the host name without path style', async () => {
    const captured: CapturedRequest[] = []
    const blobs = createS3BlobStore({
      bucket: 'content',
      region: 'us-west-2',
      credentials: { accessKeyId: 'ASIATEMP', secretAccessKey: 'secret', sessionToken: 'session-token' },
      requestHandler: capturingHandler(captured),
    })
    await blobs.delete('blob_0123456789abcdef0123456789abcdef')
    const [request] = captured
    expect(request?.hostname).toBe('content.s3.us-west-2.amazonaws.com')
    expect(request?.path).toBe('/blobs/blob_0123456789abcdef0123456789abcdef')
    expect(request?.headers['x-amz-security-token']).toBe('session-token')
    const signedHeaders = AUTHORIZATION.exec(request?.headers['authorization'] ?? '')?.[4]?.split(';') ?? []
    expect(signedHeaders).toContain('x-amz-security-token')
    expect(AUTHORIZATION.exec(request?.headers['authorization'] ?? '')?.[5]).toBe(
      expectedSignature(request as CapturedRequest, signedHeaders, { day: request?.headers['x-amz-date']?.slice(0, 8) ?? '', region: 'us-west-2' }, 'secret'),
    )
    blobs.close()
  })
})
