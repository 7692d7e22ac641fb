import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import setupS3TestServer, { SHARED_TEST_BUCKET } from '../helpers/s3-global-setup.js'
import { startS3TestServer } from '../helpers/s3-server.js'

describe('the S3 test server harness', () => {
  it('starts on a free port with its buckets, creates more, lists continuation pages (DES tokens), and cleans up on stop', async () => {
    const s3 = await startS3TestServer({ buckets: ['one'] })
    await s3.createBucket('two')
    for (const bucket of ['one', 'two']) expect((await fetch(`${s3.endpoint}/${bucket}`)).status).toBe(200)
    expect((await fetch(`${s3.endpoint}/three`)).status).toBe(404)
    for (const name of ['a', 'b', 'c']) expect((await fetch(`${s3.endpoint}/one/${name}`, { method: 'PUT', body: name })).status).toBe(200)
    const firstPage = await (await fetch(`${s3.endpoint}/one?list-type=2&max-keys=2`)).text()
    const token = /<NextContinuationToken>([^<]+)</.exec(firstPage)?.[1]
    expect(token).toBeDefined()
    const secondPage = await (await fetch(`${s3.endpoint}/one?list-type=2&max-keys=2&continuation-token=${encodeURIComponent(token ?? '')}`)).text()
    expect(secondPage).toContain('<Key>c</Key>')
    expect(existsSync(s3.directory)).toBe(true)
    await s3.stop()
    expect(existsSync(s3.directory)).toBe(false)
    await expect(fetch(s3.endpoint)).rejects.toThrow()
  })

  it('answers ListMultipartUploads and AbortMultipartUpload, which s3rver lacks', async () => {
    const s3 = await startS3TestServer({ buckets: ['up'] })
    const created = await (await fetch(`${s3.endpoint}/up/k1?uploads`, { method: 'POST' })).text()
    const uploadId = /<UploadId>([^<]+)</.exec(created)?.[1] ?? ''
    expect((await fetch(`${s3.endpoint}/up/k1?uploadId=${uploadId}&partNumber=1`, { method: 'PUT', body: 'part' })).status).toBe(200)
    const listed = await (await fetch(`${s3.endpoint}/up?uploads&prefix=k`)).text()
    expect(listed).toContain(`<UploadId>${uploadId}</UploadId>`)
    expect(listed).toContain('<Key>k1</Key>')
    expect((await fetch(`${s3.endpoint}/up/k1?uploadId=${uploadId}`, { method: 'DELETE' })).status).toBe(204)
    expect((await fetch(`${s3.endpoint}/up/k1?uploadId=${uploadId}`, { method: 'DELETE' })).status).toBe(404)
    expect(await (await fetch(`${s3.endpoint}/up?uploads`)).text()).not.toContain('<Upload>')
    expect((await fetch(`${s3.endpoint}/absent?uploads`)).status).toBe(404)
    await s3.stop()
  })

  it('works as a vitest globalSetup: provides the server, and its teardown stops it', async () => {
    const provided: Record<string, { endpoint: string; bucket: string }> = {}
    const teardown = await setupS3TestServer({ provide: (key, value) => (provided[key] = value) })
    const { endpoint, bucket } = provided['s3TestServer'] ?? { endpoint: '', bucket: '' }
    expect(bucket).toBe(SHARED_TEST_BUCKET)
    expect((await fetch(`${endpoint}/${bucket}`)).status).toBe(200)
    await teardown()
    await expect(fetch(endpoint)).rejects.toThrow()
  })
})
