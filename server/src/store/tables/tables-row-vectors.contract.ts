import { beforeEach, describe, expect, it } from 'vitest'
import type { TablesPort } from './tables-port.js'

const BOT = 'bot_vectors_a'
const EMBEDDER = 'test:unit@3'
const LEASE_MS = 60_000

/** A unit vector of three dimensions. */
function unit(x: number, y: number, z: number): Float32Array {
  const length = Math.hypot(x, y, z)
  return new Float32Array([x / length, y / length, z / length])
}

/** A table of questions: `question` and `answer` are searchable, `topic` is not. */
const faqSchema = {
  question: { type: 'string', 'x-zui': { searchable: true } },
  answer: { type: ['string', 'null'], 'x-zui': { searchable: true } },
  topic: { type: 'string' },
}

/**
 * The row-vector cases of the tables contract (decision 0860): `stale`/`indexing` counts, claims and their leases,
 * vectors written back under a claim, rows made stale by writes in the write's own transaction, and hybrid search
 * (full-text rank fused with vector nearness, the filter inside, `similarity` in [0, 1]). Called by
 * `describeTablesPortContract`, so every backend runs it; `port()` is the current test's port and `advance` moves
 * the suite's clock.
 *
 * @example
 * ```ts
 * describeRowVectorContract(() => tables, advance)
 * ```
 */
export function describeRowVectorContract(port: () => TablesPort, advance: (ms: number) => void): void {
  describe('row vectors and hybrid search', () => {
    let tables: TablesPort
    beforeEach(async () => {
      tables = port()
      await tables.createTable(BOT, { name: 'faqTable', schema: faqSchema })
      await tables.createRows(BOT, 'faqTable', [
        { question: 'How do I reset my password?', answer: 'Use the sign-in page link.', topic: 'account' },
        { question: 'Where is my parcel?', answer: 'Track it from the orders page.', topic: 'shipping' },
        { question: 'Can I pay by invoice?', answer: null, topic: 'billing' },
      ])
    })

    /** Embeds every stale row with the vector `vectorOf(text)` gives, claim by claim. */
    async function embedAll(vectorOf: (text: string) => Float32Array | null, embedderId = EMBEDDER): Promise<number> {
      let written = 0
      for (;;) {
        const claim = await tables.claimStaleRows(BOT, 'faqTable', { embedderId, limit: 2, leaseMs: LEASE_MS })
        if (claim.rows.length === 0) return written
        written += await tables.setRowVectors(BOT, 'faqTable', { token: claim.token, embedderId, vectors: claim.rows.map((row) => ({ id: row.id, vector: vectorOf(row.text) })) })
      }
    }

    const byTopic = (text: string) => (text.includes('password') ? unit(1, 0, 0) : text.includes('parcel') ? unit(0, 1, 0) : unit(0, 0, 1))

    it('counts every row of a searchable table as stale until embedded, and none of a table without searchable columns', async () => {
      expect(await tables.rowVectorCounts(BOT, 'faqTable', EMBEDDER)).toEqual({ stale: 3, indexing: 0 })
      await tables.createTable(BOT, { name: 'plainTable', schema: { n: 0 } })
      await tables.createRows(BOT, 'plainTable', [{ n: 1 }])
      expect(await tables.rowVectorCounts(BOT, 'plainTable', EMBEDDER)).toEqual({ stale: 0, indexing: 0 })
      expect((await tables.claimStaleRows(BOT, 'plainTable', { embedderId: EMBEDDER, limit: 5, leaseMs: LEASE_MS })).rows).toEqual([])
      expect(await tables.tablesWithStaleRows(EMBEDDER)).toEqual([{ botId: BOT, tableId: (await tables.loadTable(BOT, 'faqTable')).id }])
    })

    it('claims stale rows oldest first with their searchable text, counts them as indexing, and writes vectors under the claim', async () => {
      const first = await tables.claimStaleRows(BOT, 'faqTable', { embedderId: EMBEDDER, limit: 2, leaseMs: LEASE_MS })
      expect(first.rows).toEqual([
        { id: 1, text: 'How do I reset my password?\nUse the sign-in page link.' },
        { id: 2, text: 'Where is my parcel?\nTrack it from the orders page.' },
      ])
      expect(await tables.rowVectorCounts(BOT, 'faqTable', EMBEDDER)).toEqual({ stale: 3, indexing: 2 })
      const second = await tables.claimStaleRows(BOT, 'faqTable', { embedderId: EMBEDDER, limit: 2, leaseMs: LEASE_MS })
      expect(second.rows).toEqual([{ id: 3, text: 'Can I pay by invoice?' }])
      expect((await tables.claimStaleRows(BOT, 'faqTable', { embedderId: EMBEDDER, limit: 2, leaseMs: LEASE_MS })).rows).toEqual([])
      expect(await tables.tablesWithStaleRows(EMBEDDER)).toEqual([])

      const written = await tables.setRowVectors(BOT, 'faqTable', {
        token: first.token,
        embedderId: EMBEDDER,
        vectors: first.rows.map((row) => ({ id: row.id, vector: byTopic(row.text) })),
      })
      expect(written).toBe(2)
      expect(await tables.rowVectorCounts(BOT, 'faqTable', EMBEDDER)).toEqual({ stale: 1, indexing: 1 })
      // Another claim's token writes nothing.
      expect(await tables.setRowVectors(BOT, 'faqTable', { token: first.token, embedderId: EMBEDDER, vectors: [{ id: 3, vector: unit(0, 0, 1) }] })).toBe(0)
      expect(await tables.setRowVectors(BOT, 'faqTable', { token: second.token, embedderId: EMBEDDER, vectors: [{ id: 3, vector: unit(0, 0, 1) }] })).toBe(1)
      expect(await tables.rowVectorCounts(BOT, 'faqTable', EMBEDDER)).toEqual({ stale: 0, indexing: 0 })
      // Vectors of another embedder do not count.
      expect(await tables.rowVectorCounts(BOT, 'faqTable', 'test:other@3')).toEqual({ stale: 3, indexing: 0 })
    })

    it('lets another job claim rows whose claim expired, and refuses the first claim’s late write', async () => {
      const first = await tables.claimStaleRows(BOT, 'faqTable', { embedderId: EMBEDDER, limit: 3, leaseMs: LEASE_MS })
      advance(LEASE_MS + 1)
      expect(await tables.rowVectorCounts(BOT, 'faqTable', EMBEDDER)).toEqual({ stale: 3, indexing: 0 })
      const again = await tables.claimStaleRows(BOT, 'faqTable', { embedderId: EMBEDDER, limit: 3, leaseMs: LEASE_MS })
      expect(again.rows.map((row) => row.id)).toEqual([1, 2, 3])
      expect(await tables.setRowVectors(BOT, 'faqTable', { token: first.token, embedderId: EMBEDDER, vectors: [{ id: 1, vector: unit(1, 0, 0) }] })).toBe(0)
    })

    it('makes a row stale again when a searchable value changes, not when another column does, and forgets deleted rows', async () => {
      expect(await embedAll(byTopic)).toBe(3)
      await tables.updateRows(BOT, 'faqTable', [{ id: 2, topic: 'delivery' }])
      expect(await tables.rowVectorCounts(BOT, 'faqTable', EMBEDDER)).toEqual({ stale: 0, indexing: 0 })
      await tables.updateRows(BOT, 'faqTable', [{ id: 2, answer: 'Ask the carrier.' }])
      await tables.upsertRows(BOT, 'faqTable', [{ id: 3, question: 'Do you accept invoices?', topic: 'billing' }])
      expect(await tables.rowVectorCounts(BOT, 'faqTable', EMBEDDER)).toEqual({ stale: 2, indexing: 0 })
      // A claim made before the write cannot store the old text's vector.
      const claim = await tables.claimStaleRows(BOT, 'faqTable', { embedderId: EMBEDDER, limit: 5, leaseMs: LEASE_MS })
      expect(claim.rows.map((row) => row.id)).toEqual([2, 3])
      await tables.updateRows(BOT, 'faqTable', [{ id: 2, answer: 'Call us.' }])
      expect(await tables.setRowVectors(BOT, 'faqTable', { token: claim.token, embedderId: EMBEDDER, vectors: claim.rows.map((row) => ({ id: row.id, vector: byTopic(row.text) })) })).toBe(1)
      expect(await tables.rowVectorCounts(BOT, 'faqTable', EMBEDDER)).toEqual({ stale: 1, indexing: 0 })
      await tables.createRows(BOT, 'faqTable', [{ question: 'Is there a student discount?', topic: 'billing' }])
      await tables.deleteRows(BOT, 'faqTable', { ids: [1, 2] })
      expect(await tables.getTable(BOT, 'faqTable')).toMatchObject({ rows: 2 })
      expect(await tables.rowVectorCounts(BOT, 'faqTable', EMBEDDER)).toEqual({ stale: 1, indexing: 0 })
    })

    it('keeps vectors through schema changes that keep the searchable text, and drops them when it changes', async () => {
      await embedAll(byTopic)
      await tables.updateTable(BOT, 'faqTable', { schema: { ...faqSchema, notes: { type: 'string' } } })
      await tables.renameColumn(BOT, 'faqTable', 'topic', 'area')
      expect(await tables.rowVectorCounts(BOT, 'faqTable', EMBEDDER)).toEqual({ stale: 0, indexing: 0 })
      await tables.updateTable(BOT, 'faqTable', { schema: { answer: { type: ['string', 'null'] } } })
      expect(await tables.rowVectorCounts(BOT, 'faqTable', EMBEDDER)).toEqual({ stale: 3, indexing: 0 })
      const claim = await tables.claimStaleRows(BOT, 'faqTable', { embedderId: EMBEDDER, limit: 1, leaseMs: LEASE_MS })
      expect(claim.rows).toEqual([{ id: 1, text: 'How do I reset my password?' }])
      // The searchable column's later changes still make rows stale.
      await tables.setRowVectors(BOT, 'faqTable', { token: claim.token, embedderId: EMBEDDER, vectors: [{ id: 1, vector: unit(1, 0, 0) }] })
      await tables.updateRows(BOT, 'faqTable', [{ id: 1, question: 'Forgot my password' }])
      expect(await tables.rowVectorCounts(BOT, 'faqTable', EMBEDDER)).toEqual({ stale: 3, indexing: 0 })
      const copy = await tables.duplicateTable(BOT, 'faqTable', { tableName: 'faqCopyTable' })
      expect(await tables.rowVectorCounts(BOT, copy.table.id, EMBEDDER)).toEqual({ stale: 3, indexing: 0 })
    })

    it('fuses word matches with vector nearness, the filter applied inside, similarity in [0, 1] along the order', async () => {
      await embedAll(byTopic)
      await tables.createRows(BOT, 'faqTable', [{ question: 'Parcel damaged on arrival', topic: 'shipping' }])
      const query = { embedderId: EMBEDDER, values: unit(0.9, 0.1, 0) }
      // "login" is in no row: the password row is found by its vector alone.
      const nearest = await tables.findRows(BOT, 'faqTable', { search: 'login', vector: query })
      expect(nearest.rows[0]).toMatchObject({ id: 1 })
      // "parcel" matches rows 2 and 4 (row 4 has no vector yet: it still matches by its words).
      const hybrid = await tables.findRows(BOT, 'faqTable', { search: 'parcel', vector: query })
      const ids = hybrid.rows.map((row) => row.id)
      expect(ids).toEqual(expect.arrayContaining([1, 2, 4]))
      const similarities = hybrid.rows.map((row) => row.similarity!)
      for (const value of similarities) expect(value).toBeGreaterThan(0)
      for (const value of similarities) expect(value).toBeLessThanOrEqual(1)
      expect([...similarities].sort((a, b) => b - a)).toEqual(similarities)
      // The filter is applied before ranking: the nearest row is filtered out, not cut from a page.
      const filtered = await tables.findRows(BOT, 'faqTable', { search: 'login', vector: query, filter: { topic: { $ne: 'account' } } })
      expect(filtered.rows.map((row) => row.id)).not.toContain(1)
      // Paging and the other orders read the same candidates.
      const firstPage = await tables.findRows(BOT, 'faqTable', { search: 'parcel', vector: query, limit: 1 })
      expect(firstPage).toMatchObject({ hasMore: true, rows: [{ id: ids[0] }] })
      const rest = await tables.findRows(BOT, 'faqTable', { search: 'parcel', vector: query, limit: 10, offset: 1 })
      expect(rest.rows.map((row) => row.id)).toEqual(ids.slice(1))
      expect(rest.hasMore).toBe(false)
      const ascending = await tables.findRows(BOT, 'faqTable', { search: 'parcel', vector: query, orderBy: 'similarity', orderDirection: 'asc' })
      expect(ascending.rows.map((row) => row.id)).toEqual([...ids].reverse())
      const byId = await tables.findRows(BOT, 'faqTable', { search: 'parcel', vector: query, orderBy: 'id', select: ['topic'] })
      expect(byId.rows).toEqual([...hybrid.rows].sort((a, b) => a.id - b.id).map((row) => expect.objectContaining({ id: row.id, topic: row['topic'], similarity: row.similarity })))
      // Without a vector the search is lexical, as before.
      expect((await tables.findRows(BOT, 'faqTable', { search: 'login' })).rows).toEqual([])
      // Vectors of another embedder are not compared: lexical again.
      expect((await tables.findRows(BOT, 'faqTable', { search: 'login', vector: { embedderId: 'test:other@3', values: query.values } })).rows).toEqual([])
    })
  })
}
