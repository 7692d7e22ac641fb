import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Backend } from '../../backend.js'
import { openSearchTestBackend } from './search-test-backend.test-support.js'
import { realPostgresDatabase, type SchemaSource } from './test-databases.test-support.js'

const BOT = 'bot_pg_search'
const now = () => new Date('2026-05-01T08:00:00.000Z')

describe('PostgreSQL search port on the server (exact mode)', () => {
  let real: SchemaSource
  let backend: Backend
  let close: () => Promise<void>
  let fileId: string

  beforeAll(async () => {
    real = await realPostgresDatabase()
    const schema = await real.openSchema()
    close = schema.close
    backend = await openSearchTestBackend(schema.sql, now, 'exact')
    const { file } = await backend.files.upsert({
      botId: BOT, key: 'nul.md', ownerScope: '', owner: { type: 'bot', id: BOT }, size: 1, contentType: 'text/plain',
      tags: {}, metadata: {}, accessPolicies: [], index: true, expiresAt: null,
    })
    fileId = file.id
  })
  afterAll(async () => {
    await close?.()
    await real?.drop()
  })

  it('indexes passages holding NUL without it (PostgreSQL text cannot hold NUL) and searches text holding NUL', async () => {
    await backend.search.replacePassages({
      fileId,
      botId: BOT,
      embedderId: null,
      passages: [{ content: 'zero\u0000byte warranty', subtype: 'paragraph', breadcrumb: ['Guide\u0000'], vector: null }],
    })
    const [stored] = (await backend.search.listPassages({ fileId, pageSize: 5 })).items
    expect(stored).toMatchObject({ content: 'zerobyte warranty', breadcrumb: ['Guide'] })
    const hits = await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: 'warr\u0000anty', limit: 5 })
    expect(hits.map((hit) => hit.passage.content)).toEqual(['zerobyte warranty'])
  })

  it('a query of stop words and punctuation alone matches nothing instead of failing', async () => {
    expect(await backend.search.search({ botId: BOT, scope: { kind: 'all' }, text: 'the and of !!! & | ( )', limit: 5 })).toEqual([])
  })

  it('a vector with a non-finite value is refused naming its index, and the old passages stay', async () => {
    await expect(
      backend.search.replacePassages({
        fileId,
        botId: BOT,
        embedderId: 'e',
        passages: [{ content: 'bad', subtype: 'paragraph', breadcrumb: [], vector: new Float32Array([0.5, Number.NaN]) }],
      }),
    ).rejects.toThrow('vector[1]: expected a finite number, received NaN')
    expect((await backend.search.listPassages({ fileId, pageSize: 5 })).items.map((p) => p.content)).toEqual(['zerobyte warranty'])
  })
})
