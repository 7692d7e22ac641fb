import { createHash } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Backend } from '../backend.js'
import type { Clock } from '../clock.js'
import { datasetParts, positionAfter, type DatasetPartName, type DatasetRecord } from './dataset-parts.js'

const T = '2026-03-01T10:00:00.000Z'
const vector = (values: number[]): string => {
  const bytes = Buffer.alloc(values.length * 4)
  values.forEach((value, index) => bytes.writeFloatLE(value, index * 4))
  return bytes.toString('base64')
}

/** One record of every part, as an archive carries them: the ports must then see them as their own. */
function sampleDataset(): Record<DatasetPartName, DatasetRecord[]> {
  const file = (id: string, key: string, blob: string | null): DatasetRecord => ({
    id, bot_id: 'bot-a', key, owner_scope: '', owner_json: JSON.stringify({ type: 'bot', id: 'bot-a' }), content_type: 'text/markdown',
    tags_json: JSON.stringify({ lang: 'en' }), metadata_json: JSON.stringify({ source: 'crm', n: 2 }), access_policies_json: '[]',
    policy_public: false, policy_integrations: true, index_requested: true, status: 'indexing_completed', failed_status_reason: null,
    expires_at: null, created_at: T, updated_at: T, version: 3, declared_size: 11, content_version: 3, blob_id: blob, size: 11,
    sha256: createHash('sha256').update('hello world').digest('hex'), blob_content_type: 'text/markdown', index_generation: 2,
    indexing_stack: null, indexing_configuration_json: null,
  })
  return {
    workspaces: [{ id: 'ws-1', name: 'Workspace', created_at: T }],
    bots: [{ id: 'bot-a', workspace_id: 'ws-1', name: 'support', created_at: T }],
    tokens: [
      { id: 'tok-1', hash: createHash('sha256').update('bs_secret').digest('hex'), bot_id: 'bot-a', workspace_id: null, role: 'bot', integration_name: null, user_id: null, label: 'ci', created_at: T, revoked_at: null },
    ],
    secrets: [{ name: 'signing-key', value: Buffer.alloc(32, 7).toString('base64'), created_at: T }],
    files: [file('file_01', 'a.md', 'blob-1'), file('file_02', 'b.md', 'blob-2')],
    fileTags: [
      { file_id: 'file_01', bot_id: 'bot-a', tag_key: 'lang', tag_value: 'en' },
      { file_id: 'file_02', bot_id: 'bot-a', tag_key: 'lang', tag_value: 'en' },
    ],
    knowledgeBases: [{ id: 'kb_01', bot_id: 'bot-a', name: 'Docs', tags_json: '{"team":"ops"}', created_at: T, updated_at: T }],
    knowledgeBaseTags: [{ knowledge_base_id: 'kb_01', bot_id: 'bot-a', tag_key: 'team', tag_value: 'ops' }],
    passages: [
      { id: 'p-1', file_id: 'file_01', bot_id: 'bot-a', position: 0, content: 'Refunds take five days', subtype: 'paragraph', page_number: null, breadcrumb_json: '["Policy"]', embedder_id: 'test:3', embedding: vector([1, 0, 0]) },
      { id: 'p-2', file_id: 'file_01', bot_id: 'bot-a', position: 1, content: 'Shipping is free', subtype: 'list', page_number: 2, breadcrumb_json: '[]', embedder_id: null, embedding: null },
    ],
    tableJobs: [
      { id: 'job_01', bot_id: 'bot-a', table_id: 'table_01', type: 'export', status: 'completed', progress: 1, input_file_id: null, output_file_id: 'file_02', error: null, rows_committed: 0, created_at: T, updated_at: T },
    ],
    jobs: [
      { seq: 1, id: 'q-1', kind: 'files.index', payload_json: '{"fileId":"file_01"}', state: 'pending', attempts: 0, max_attempts: 5, dedupe_key: 'file_01', run_at: T, lease_owner: null, lease_expires_at: null, last_error: null, created_at: T, updated_at: T, finished_at: null },
    ],
  }
}

/**
 * The dataset port contract: on an empty backend, records of every part written in a transaction read back exactly
 * (booleans, bytes, vectors, nulls), page by page in key order, and the other ports see them as their own data; a
 * failed transaction leaves the backend empty.
 *
 * @example
 * ```ts
 * describeDatasetPortContract('sqlite', async (now) => {
 *   const backend = await openSqliteBackend({ memory: true, now })
 *   return { backend, close: () => backend.close() }
 * })
 * ```
 */
export function describeDatasetPortContract(name: string, open: (now: Clock) => Promise<{ backend: Backend; close(): Promise<void> }>): void {
  describe(`DatasetPort contract: ${name}`, () => {
    let backend: Backend
    let close: () => Promise<void>
    beforeEach(async () => {
      close = async () => {}
      const opened = await open(() => new Date('2026-03-02T00:00:00.000Z'))
      backend = opened.backend
      close = opened.close
    })
    afterEach(async () => close())

    async function readAll(part: DatasetPartName, limit: number): Promise<DatasetRecord[]> {
      const spec = datasetParts.find((p) => p.name === part)!
      const found: DatasetRecord[] = []
      let after: Array<string | number> | undefined
      for (;;) {
        const { records } = await backend.dataset.readPage(part, { limit, ...(after ? { after } : {}) })
        found.push(...records)
        if (records.length < limit) return found
        after = positionAfter(spec, records.at(-1)!)
      }
    }

    it('writes every part in a transaction and reads it back exactly, in pages, and the ports see it', async () => {
      expect(await backend.dataset.isEmpty()).toBe(true)
      const sample = sampleDataset()
      await backend.transaction(async (tx) => {
        for (const part of datasetParts) await tx.dataset.writeRecords(part.name, sample[part.name])
      })
      expect(await backend.dataset.isEmpty()).toBe(false)
      for (const part of datasetParts) {
        const expected = part.name === 'jobs' ? sample.jobs.map((job) => ({ ...job, seq: expect.any(Number) })) : sample[part.name]
        expect(await readAll(part.name, 1)).toEqual(expected)
        expect(await readAll(part.name, 100)).toEqual(expected)
        expect(await backend.dataset.count(part.name)).toBe(sample[part.name].length)
      }
      const check = await backend.auth.authenticate('bs_secret', 'bot-a')
      expect(check).toMatchObject({ ok: true, scope: 'bot' })
      expect(await backend.auth.signingKey()).toEqual(Buffer.alloc(32, 7))
      const file = await backend.files.getById('bot-a', 'file_01')
      expect(file).toMatchObject({ key: 'a.md', tags: { lang: 'en' }, metadata: { source: 'crm', n: 2 }, version: 3 })
      const hits = await backend.search.search({ botId: 'bot-a', scope: { kind: 'all' }, text: 'refunds', vector: { embedderId: 'test:3', values: new Float32Array([1, 0, 0]) }, limit: 5 })
      expect(hits[0]?.passage).toMatchObject({ id: 'p-1', content: 'Refunds take five days', breadcrumb: ['Policy'] })
      expect((await backend.knowledgeBases.get('bot-a', 'kb_01'))?.tags).toEqual({ team: 'ops' })
    })

    it('leaves the backend empty when the transaction fails', async () => {
      const sample = sampleDataset()
      await expect(
        backend.transaction(async (tx) => {
          await tx.dataset.writeRecords('workspaces', sample.workspaces)
          await tx.dataset.writeRecords('bots', sample.bots)
          throw new Error('checksum mismatch')
        }),
      ).rejects.toThrow('checksum mismatch')
      expect(await backend.dataset.isEmpty()).toBe(true)
      expect(await backend.dataset.count('bots')).toBe(0)
    })
  })
}
