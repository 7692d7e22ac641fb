import { afterEach, describe, expect, it } from 'vitest'
import { uploadText } from '../files/helpers.js'
import { settledFile, startSearchService, type SearchTestService } from '../files/search-helpers.js'

let service: SearchTestService | undefined
afterEach(async () => {
  await service?.close()
  service = undefined
})

const getFile = async (s: SearchTestService, id: string) => (await s.request('GET', `/v1/files/${id}`)).body.file

describe('storage quotas', () => {
  it('refuses an upload that would pass the File Storage quota with 413 and upload_failed, counting every bot, and lets a replacement that fits', async () => {
    service = await startSearchService({ quotas: { fileStorageBytes: 100 } })
    const first = await uploadText(service, 'a.txt', 'x'.repeat(60))
    expect(first.putStatus).toBe(200)
    // The other bot's 30 bytes count too: the quota is the workspace's.
    expect((await uploadText(service, 'b.txt', 'y'.repeat(30), {}, 'otherBot')).putStatus).toBe(200)

    const refused = await uploadText(service, 'c.txt', 'z'.repeat(20))
    expect(refused.putStatus).toBe(413)
    const file = await getFile(service, refused.file.id)
    expect(file.status).toBe('upload_failed')
    expect(file.failedStatusReason).toBe("the workspace's File Storage quota of 100 bytes would be exceeded: 90 bytes are used and this content has 20")

    // A new version of a.txt gives its 60 bytes back first: 70 bytes replacing 60 fit (30 + 70 = 100).
    expect((await uploadText(service, 'a.txt', 'w'.repeat(70))).putStatus).toBe(200)
    expect((await service.app.admin.usage()).total.fileStorage.bytes).toBe(100)
  })

  it('fails indexing that would pass the Vector DB Storage quota with indexing_failed and the reason, leaving no passages', async () => {
    // 64-d float32 vectors: 256 bytes per passage, plus its text.
    service = await startSearchService({ quotas: { vectorStorageBytes: 600 } })
    const small = await uploadText(service, 'small.md', 'One short passage.', { index: true })
    expect((await settledFile(service, small.file.id)).status).toBe('indexing_completed')
    const used = (await service.app.admin.usage()).total.vectorStorage.bytes
    expect(used).toBe(256 + 'One short passage.'.length)

    const big = await uploadText(service, 'big.md', '# Big\n\nFirst paragraph here.\n\nSecond paragraph here.\n\nThird paragraph here.', { index: true })
    const settled = await settledFile(service, big.file.id)
    expect(settled.status).toBe('indexing_failed')
    expect(settled.failedStatusReason).toMatch(new RegExp(`^the workspace's Vector DB Storage quota of 600 bytes would be exceeded: ${used} bytes are used and this document's \\d+ passages need \\d+$`))
    expect((await service.request('GET', `/v1/files/${big.file.id}/passages`)).body.passages).toEqual([])
    expect((await service.app.admin.usage()).total.vectorStorage.bytes).toBe(used)
  })
})
