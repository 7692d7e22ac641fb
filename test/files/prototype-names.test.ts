import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'

// docs/decisions/0701-input-bounds.md: metadata keys and tag keys named like prototype members are ordinary keys.

const NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf'] as const

let service: TestService
beforeAll(async () => {
  service = await startTestService()
  await service.request('PUT', '/v1/files', { body: { key: 'other.txt', size: 1, tags: { color: 'red' } } })
})
afterAll(async () => {
  await service.close()
})

describe('file metadata and tags named like prototype members', () => {
  it('round-trip through upsertFile, getFile and a merge of updateFileMetadata', async () => {
    for (const name of NAMES) {
      const key = `${name}.txt`
      const created = await service.request('PUT', '/v1/files', { body: { key, size: 1, metadata: { [name]: { [name]: 1 } }, tags: { [name]: 'v1' } } })
      expect(created.status, created.text).toBe(200)
      expect(created.body.file).toMatchObject({ metadata: { [name]: { [name]: 1 } }, tags: { [name]: 'v1' } })
      const updated = await service.request('PUT', `/v1/files/${key}`, { body: { metadata: { [name]: 'two', extra: 1 }, tags: { [name]: 'v2', more: 'm' } } })
      expect(updated.status, updated.text).toBe(200)
      expect(updated.body.file.metadata).toEqual({ [name]: 'two', extra: 1 })
      expect(updated.body.file.tags).toEqual({ [name]: 'v2', more: 'm' })
      const removed = await service.request('PUT', `/v1/files/${key}`, { body: { metadata: { [name]: null }, tags: { [name]: null } } })
      expect(removed.body.file.metadata).toEqual({ extra: 1 })
      expect(removed.body.file.tags).toEqual({ more: 'm' })
      const restored = await service.request('PUT', `/v1/files/${key}`, { body: { tags: { [name]: 'v3' } } })
      expect((await service.request('GET', `/v1/files/${key}`)).body.file.tags).toEqual({ [name]: 'v3', more: 'm' })
      expect(restored.status).toBe(200)
    }
  })

  it('filter listFiles on them (dot notation and JSON), instead of dropping the filter', async () => {
    for (const name of NAMES) {
      const dotted = await service.request('GET', '/v1/files', { query: { tags: { [name]: 'v3' } } })
      expect(dotted.status, dotted.text).toBe(200)
      expect(dotted.body.files.map((f: { key: string }) => f.key)).toEqual([`${name}.txt`])
      const json = await service.request('GET', `/v1/files?tags=${encodeURIComponent(JSON.stringify({ [name]: { exists: true } }))}`)
      expect(json.body.files.map((f: { key: string }) => f.key)).toEqual([`${name}.txt`])
      const values = await service.request('GET', `/v1/files/tags/${name}/values`)
      expect(values.body.values).toEqual(['v3'])
    }
    const tags = await service.request('GET', '/v1/files/tags')
    expect(tags.body.tags).toEqual(expect.arrayContaining([...NAMES]))
  })

  it('are knowledge base tags like any other', async () => {
    for (const name of NAMES) {
      const created = await service.request('POST', '/v1/files/knowledge-bases', { body: { name: `kb ${name}`, tags: { [name]: 'k' } } })
      expect(created.status, created.text).toBe(200)
      expect(created.body.knowledgeBase.tags).toEqual({ [name]: 'k' })
      const merged = await service.request('PUT', `/v1/files/knowledge-bases/${created.body.knowledgeBase.id}`, { body: { name: `kb ${name}`, tags: { [name]: null, x: 'y' } } })
      expect(merged.body.knowledgeBase.tags).toEqual({ x: 'y' })
      await service.request('PUT', `/v1/files/knowledge-bases/${created.body.knowledgeBase.id}`, { body: { name: `kb ${name}`, tags: { [name]: 'k2' } } })
      const listed = await service.request('GET', '/v1/files/knowledge-bases', { query: { tags: { [name]: 'k2' } } })
      expect(listed.body.knowledgeBases.map((kb: { name: string }) => kb.name)).toEqual([`kb ${name}`])
    }
  })
})
