/**
 * Hybrid table search end to end (decision 0860), through the official `@botpress/client` on a real port with the
 * offline default embedder: rows are embedded in the background after writes (`stale` falls to 0), a question
 * sharing no word with a row finds it, writes make rows stale again, and rows left stale when the server stopped
 * are embedded after a restart.
 */
import type { Client } from '@botpress/client'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOfflineEmbedder, type Embedder } from '../../server/src/search/embedding/index.js'
import { createTablesFeature } from '../../server/src/tables/index.js'
import { eventually } from '../helpers/eventually.js'
import { startTestService, type TestService } from '../helpers/service.js'

const products = [
  { name: 'Blue ceramic teapot with bamboo handle', stock: 4 },
  { name: 'Waterproof hiking boots for mountain trails', stock: 0 },
  { name: 'Stainless steel chef knife, eight inch blade', stock: 9 },
  { name: 'Wireless noise cancelling headphones', stock: 2 },
  { name: 'Organic dark roast coffee beans', stock: 12 },
  { name: 'Leather wallet with coin pocket', stock: 7 },
]

const schema = { name: { type: 'string', 'x-zui': { searchable: true } }, stock: { type: 'number' } } as const

let embedder: Embedder

/** The offline embedder behind a gate the test closes and opens, so counts can be read while rows wait. */
function gated(inner: () => Embedder): Embedder & { hold(): void; release(): void } {
  let gate: Promise<void> = Promise.resolve()
  let openGate = () => {}
  return {
    get id() {
      return inner().id
    },
    label: 'gated offline embedder',
    dimensions: () => inner().dimensions(),
    embed: async (texts, options) => {
      await gate
      return inner().embed(texts, options)
    },
    hold() {
      gate = new Promise((resolve) => (openGate = resolve))
    },
    release() {
      openGate()
    },
  }
}
const gate = gated(() => embedder)

/** Polls `getTable` until no row is stale (the embedding job runs in the background); returns the last counts. */
async function waitUntilEmbedded(client: Client, table: string): Promise<{ rows: number; stale: number; indexing: number }> {
  return eventually(
    async () => {
      const { rows, stale, indexing } = await client.getTable({ table })
      return stale === 0 ? { rows, stale, indexing } : undefined
    },
    `the rows of ${table} embedded`,
    1_200,
  )
}

beforeAll(async () => {
  embedder = await createOfflineEmbedder()
})

describe('hybrid table search through @botpress/client', () => {
  let service: TestService
  beforeAll(async () => {
    service = await startTestService({ listen: true, features: [createTablesFeature({ search: { embedder: gate } })] })
  })
  afterAll(async () => {
    await service?.close()
  })

  it('embeds rows after writes, finds a row by a question sharing no word with it, and counts rows made stale by an update', async () => {
    const client = service.botpressClient('bot')
    await client.createTable({ name: 'productsTable', schema })
    await client.createTableRows({ table: 'productsTable', rows: products })
    expect(await waitUntilEmbedded(client, 'productsTable')).toEqual({ rows: 6, stale: 0, indexing: 0 })

    // "espresso" is in no row: the coffee beans are found by meaning (the offline embedder ranks them first).
    const { rows } = await client.findTableRows({ table: 'productsTable', search: 'espresso' })
    expect(rows[0]).toMatchObject({ name: 'Organic dark roast coffee beans' })
    for (const row of rows) {
      expect(row.similarity).toBeGreaterThan(0)
      expect(row.similarity).toBeLessThanOrEqual(1)
    }
    // The filter applies before ranking.
    const inStock = await client.findTableRows({ table: 'productsTable', search: 'espresso', filter: { stock: { $lt: 10 } } })
    expect(inStock.rows.map((row) => row['name'])).not.toContain('Organic dark roast coffee beans')
    // An exact word still ranks its row first.
    expect((await client.findTableRows({ table: 'productsTable', search: 'wallet' })).rows[0]).toMatchObject({ name: 'Leather wallet with coin pocket' })

    // A change of the searchable text makes the row stale until it is embedded again; another column does not.
    gate.hold()
    await client.updateTableRows({ table: 'productsTable', rows: [{ id: 5, stock: 11 }] })
    expect(await client.getTable({ table: 'productsTable' })).toMatchObject({ rows: 6, stale: 0, indexing: 0 })
    await client.updateTableRows({ table: 'productsTable', rows: [{ id: 1, name: 'Cast iron kettle' }] })
    const after = await client.getTable({ table: 'productsTable' })
    expect(after.stale).toBe(1)
    // The job may have claimed the row already (it then waits at the gate): indexing is 0 or that one row.
    expect(after.indexing).toBeLessThanOrEqual(1)
    gate.release()
    expect(await waitUntilEmbedded(client, 'productsTable')).toEqual({ rows: 6, stale: 0, indexing: 0 })
    expect((await client.findTableRows({ table: 'productsTable', search: 'kettle' })).rows[0]).toMatchObject({ name: 'Cast iron kettle' })
  })

  it('searches by words only, as before, with no embedder', async () => {
    const lexical = await startTestService({ listen: true, features: [createTablesFeature({ search: { embedder: null } })] })
    try {
      const client = lexical.botpressClient('bot')
      await client.createTable({ name: 'productsTable', schema })
      await client.createTableRows({ table: 'productsTable', rows: products })
      expect(await client.getTable({ table: 'productsTable' })).toMatchObject({ rows: 6, stale: 0, indexing: 0 })
      expect((await client.findTableRows({ table: 'productsTable', search: 'espresso' })).rows).toEqual([])
      expect((await client.findTableRows({ table: 'productsTable', search: 'coffee' })).rows.map((row) => row['name'])).toEqual(['Organic dark roast coffee beans'])
    } finally {
      await lexical.close()
    }
  })
})

describe('row embedding across a restart', () => {
  it('embeds the rows left stale when the server stopped once it is back', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'botshelf-table-vectors-'))
    try {
      // First life without an embedder: the rows are written, and stale (the write marked them in its transaction).
      const first = await startTestService({ listen: true, dataDir, features: [createTablesFeature({ search: { embedder: null } })] })
      const client = first.botpressClient('bot')
      await client.createTable({ name: 'productsTable', schema })
      await client.createTableRows({ table: 'productsTable', rows: products })
      expect(await first.backend.tables.rowVectorCounts(first.botId, 'productsTable', embedder.id)).toEqual({ stale: 6, indexing: 0 })
      await first.close()

      // Second life with the embedder: the sweep at start queues the table, and its rows are embedded.
      const second = await startTestService({ listen: true, dataDir, features: [createTablesFeature({ search: { embedder } })] })
      try {
        const again = second.botpressClient('bot')
        expect(await waitUntilEmbedded(again, 'productsTable')).toEqual({ rows: 6, stale: 0, indexing: 0 })
        expect((await again.findTableRows({ table: 'productsTable', search: 'espresso' })).rows[0]).toMatchObject({ name: 'Organic dark roast coffee beans' })
      } finally {
        await second.close()
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
