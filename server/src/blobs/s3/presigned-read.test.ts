import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startS3TestServer, type S3TestServer } from '../../../../test/helpers/s3-server.js'
import { createS3BlobStore } from './s3-blob-store.js'
import { s3ObjectUrl, type S3Location } from './s3-object-url.js'
import { presignS3Get, type SigningCredentials } from './sigv4-presign.js'
import { bytesOf } from './bytes.test-support.js'

const signingDate = new Date('2026-01-02T03:04:05.678Z')
const disposition = `attachment; filename="a b.txt"; filename*=UTF-8''a%20b%C3%A9.txt`

async function sdkPresigned(location: S3Location, credentials: SigningCredentials, key: string, expiresIn: number): Promise<string> {
  const client = new S3Client({
    region: location.region,
    ...(location.endpoint ? { endpoint: location.endpoint } : {}),
    forcePathStyle: location.forcePathStyle ?? false,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
  const command = new GetObjectCommand({
    Bucket: location.bucket,
    Key: key,
    ResponseContentType: 'text/plain; charset=utf-8',
    ResponseContentDisposition: disposition,
    ResponseCacheControl: 'private, no-cache',
  })
  const url = await getSignedUrl(client, command, { expiresIn, signingDate })
  client.destroy()
  return url
}

describe('presignS3Get', () => {
  it.each<[string, S3Location, SigningCredentials]>([
    ['a custom endpoint, path style', { bucket: 'content', region: 'eu-west-3', endpoint: 'http://127.0.0.1:4569', forcePathStyle: true }, { accessKeyId: 'AKID', secretAccessKey: 'SECRET' }],
    ['AWS, virtual-hosted, temporary credentials', { bucket: 'my-bucket', region: 'eu-west-3' }, { accessKeyId: 'ASIA', secretAccessKey: 'S/+x', sessionToken: 'TOK+/=' }],
    ['a custom endpoint with a port, virtual-hosted', { bucket: 'my-bucket', region: 'us-east-1', endpoint: 'https://minio.example.com:9000' }, { accessKeyId: 'AKID', secretAccessKey: 'SECRET' }],
    ['AWS, a bucket name with dots (path style)', { bucket: 'my.bucket', region: 'us-west-2', forcePathStyle: true }, { accessKeyId: 'AKID', secretAccessKey: 'SECRET' }],
  ])('makes the very URL the AWS SDK presigner makes: %s', async (_, location, credentials) => {
    const key = "pre fix/blobs/blob_0123456789abcdef0123456789abcdef"
    const ours = presignS3Get({
      objectUrl: s3ObjectUrl(location, key),
      region: location.region,
      credentials,
      now: signingDate,
      expiresInSeconds: 900,
      query: { 'response-content-type': 'text/plain; charset=utf-8', 'response-content-disposition': disposition, 'response-cache-control': 'private, no-cache' },
    })
    expect(ours).toBe(await sdkPresigned(location, credentials, key, 900))
  })

  it('refuses a lifetime SigV4 does not accept', () => {
    const input = { objectUrl: new URL('https://b.s3.us-east-1.amazonaws.com/k'), region: 'us-east-1', credentials: { accessKeyId: 'A', secretAccessKey: 'S' }, now: signingDate, query: {} }
    expect(() => presignS3Get({ ...input, expiresInSeconds: 0 })).toThrow('expiresInSeconds: expected an integer from 1 to 604800, received 0')
    expect(() => presignS3Get({ ...input, expiresInSeconds: 604_801 })).toThrow(/received 604801/)
  })
})

describe('S3 blob store: presigned reads', () => {
  let s3: S3TestServer
  beforeAll(async () => {
    s3 = await startS3TestServer({ buckets: ['content'] })
  })
  afterAll(async () => {
    await s3?.stop()
  })
  const options = () => ({
    bucket: 'content',
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  })

  it('has no presignedReadUrl unless presignDownloads is on', () => {
    const blobs = createS3BlobStore(options())
    expect(blobs.presignedReadUrl).toBeUndefined()
    blobs.close()
  })

  it('answers undefined until credentials are resolved, then a URL the storage serves with the asked type and disposition', async () => {
    const blobs = createS3BlobStore({ ...options(), presignDownloads: true })
    const { blobId } = await blobs.write(bytesOf('presigned bytes'))
    const ask = { now: new Date(), expiresInSeconds: 300, contentType: 'text/plain', contentDisposition: 'attachment; filename="notes.txt"' }
    expect(blobs.presignedReadUrl?.(blobId, ask)).toBeUndefined()
    await blobs.refreshSigningCredentials()
    const url = blobs.presignedReadUrl?.(blobId, ask)
    expect(url).toMatch(new RegExp(`^${s3.endpoint}/content/blobs/${blobId}\\?X-Amz-Algorithm=AWS4-HMAC-SHA256&`))
    expect(new URL(url ?? '').searchParams.get('X-Amz-Expires')).toBe('300')
    const response = await fetch(url ?? '')
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('presigned bytes')
    expect(response.headers.get('content-type')).toBe('text/plain')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="notes.txt"')
    expect(response.headers.get('cache-control')).toBe('private, no-cache')
    blobs.close()
  })

  it('caps the lifetime at seven days and refuses to sign a bad blob id', async () => {
    const blobs = createS3BlobStore({ ...options(), presignDownloads: true })
    await blobs.refreshSigningCredentials()
    const url = blobs.presignedReadUrl?.('blob_0123456789abcdef0123456789abcdef', { now: new Date(), expiresInSeconds: 30 * 24 * 3600, contentType: 'a/b', contentDisposition: 'inline' })
    expect(new URL(url ?? '').searchParams.get('X-Amz-Expires')).toBe('604800')
    expect(() => blobs.presignedReadUrl?.('../etc', { now: new Date(), expiresInSeconds: 60, contentType: 'a/b', contentDisposition: 'inline' })).toThrow('not a blob id')
    blobs.close()
  })

  it('serves through botshelf (undefined) when the credentials expire before the URL would, and refreshes them', async () => {
    let calls = 0
    const blobs = createS3BlobStore({
      ...options(),
      presignDownloads: true,
      credentials: async () => {
        calls++
        return { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, expiration: new Date(Date.now() + (calls === 1 ? 600_000 : 3_600_000)) }
      },
    })
    await blobs.refreshSigningCredentials()
    const ask = { now: new Date(), expiresInSeconds: 900, contentType: 'a/b', contentDisposition: 'inline' }
    expect(blobs.presignedReadUrl?.('blob_0123456789abcdef0123456789abcdef', ask)).toBeUndefined()
    await blobs.refreshSigningCredentials()
    expect(calls).toBeGreaterThanOrEqual(2)
    expect(blobs.presignedReadUrl?.('blob_0123456789abcdef0123456789abcdef', ask)).toMatch(/X-Amz-Signature=[0-9a-f]{64}/)
    blobs.close()
  })
})
