import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../helpers/eventually.js'
import type { Client } from '../../src/client/index.js'
import { startClientService, type ClientTestService } from './service.js'

const require = createRequire(import.meta.url)
const official = require('@botpress/client') as typeof import('@botpress/client')

/**
 * A scenario is written once against the client surface and run twice against the same server:
 * with `@botpress/client` and with botshelf's client. `p` is a prefix that keeps the two runs' keys
 * and table names apart. Whatever it returns (or the error it hits) must be the same for both.
 */
type Scenario = (client: Client, p: string) => Promise<unknown>

async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await run() }
  } catch (error) {
    const e = error as Record<string, unknown>
    return {
      error: {
        isApiError: e['isApiError'] === true,
        type: e['type'],
        code: e['code'],
        message: e['message'],
        description: e['description'],
        metadata: e['metadata'],
        hasId: typeof e['id'] === 'string' && (e['id'] as string).startsWith('err_'),
      },
    }
  }
}

/** Replaces what legitimately differs between two runs: the prefix, generated ids, timestamps and signed URLs. */
function normalize(value: unknown, prefix: string): unknown {
  const ids = new Map<string, string>()
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      let s = v.split(prefix).join('<p>')
      if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(s)) return '<date>'
      if (/^https?:\/\//.test(s)) return '<url>'
      s = s.replace(/\b(file|table|kb|job|err)_[0-9A-Za-z]+/g, (id) => {
        if (!ids.has(id)) ids.set(id, `<${id.split('_')[0]}${ids.size}>`)
        return ids.get(id) as string
      })
      return s
    }
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.split(prefix).join('<p>'), walk(x)]))
    return v
  }
  return walk(value)
}

const scenarios: Record<string, Scenario> = {
  'upload text, get by key with a slash, space and accent, list by tag': async (c, p) => {
    const up = await c.uploadFile({ key: `${p}/dir/é x.txt`, content: 'héllo', tags: { run: p, kind: 'note' }, metadata: { a: 1 } })
    const got = await c.getFile({ id: `${p}/dir/é x.txt` })
    const listed = await c.listFiles({ tags: { run: p } })
    return { up, got, listed }
  },
  'upload bytes and a Blob': async (c, p) => {
    const a = await c.uploadFile({ key: `${p}/bytes.bin`, content: new Uint8Array([1, 2, 3, 4]) })
    const b = await c.uploadFile({ key: `${p}/blob.txt`, content: new Blob(['blob!']), contentType: 'text/plain' })
    return { a, b, after: (await c.getFile({ id: `${p}/blob.txt` })).file }
  },
  'upload from a url, then the content is the same': async (c, p) => {
    const source = await c.uploadFile({ key: `${p}/source.txt`, content: 'from a url' })
    const url = (await c.getFile({ id: source.file.id })).file.url
    const copy = await c.uploadFile({ key: `${p}/copy.txt`, url, tags: { from: 'url' } })
    const stored = (await c.getFile({ id: `${p}/copy.txt` })).file
    const text = await (await fetch(stored.url)).text()
    return { copy, stored, text }
  },
  'copy into another bot needs access to it': async (c, p) => {
    await c.uploadFile({ key: `${p}/mine.txt`, content: 'x' })
    return outcome(() => c.copyFile({ idOrKey: `${p}/mine.txt`, destinationKey: 'theirs.txt', 'x-destination-bot-id': 'some-other-bot' }))
  },
  'tag filters: OR, not, exists, ids, sorting': async (c, p) => {
    await c.uploadFile({ key: `${p}/t1.txt`, content: '1', tags: { run: p, team: 'sales', region: 'eu' } })
    await c.uploadFile({ key: `${p}/t2.txt`, content: '22', tags: { run: p, team: 'support' } })
    const t3 = await c.uploadFile({ key: `${p}/t3.txt`, content: '333', tags: { run: p, team: 'legal', region: 'us' } })
    const keys = async (input: Parameters<Client['listFiles']>[0]) => (await c.listFiles(input)).files.map((f) => f.key)
    return {
      or: await keys({ tags: { run: p, team: ['sales', 'support'] }, sortField: 'key', sortDirection: 'asc' }),
      not: await keys({ tags: { run: p, team: { not: 'legal' } }, sortField: 'size', sortDirection: 'desc' }),
      exists: await keys({ tags: { run: p, region: { exists: false } } }),
      ids: await keys({ ids: [t3.file.id] }),
    }
  },
  'updateFileMetadata merges and deletes': async (c, p) => {
    await c.uploadFile({ key: `${p}/meta.txt`, content: 'm', tags: { a: '1', b: '2' }, metadata: { x: 1 } })
    return await c.updateFileMetadata({ id: `${p}/meta.txt`, tags: { b: null, c: '3' }, metadata: { y: 2 }, accessPolicies: ['integrations'] })
  },
  'copyFile, then the same copy without overwrite fails': async (c, p) => {
    await c.uploadFile({ key: `${p}/src.txt`, content: 'copy' })
    const copied = await c.copyFile({ idOrKey: `${p}/src.txt`, destinationKey: `${p}/dst.txt` })
    const again = await outcome(() => c.copyFile({ idOrKey: `${p}/src.txt`, destinationKey: `${p}/dst.txt` }))
    return { copied, again }
  },
  'deleteFile, then getFile is ResourceNotFound': async (c, p) => {
    await c.uploadFile({ key: `${p}/gone.txt`, content: 'x' })
    const deleted = await c.deleteFile({ id: `${p}/gone.txt` })
    const after = await outcome(() => c.getFile({ id: `${p}/gone.txt` }))
    return { deleted, after }
  },
  'list collections: files with a limit, tags, tag values': async (c, p) => {
    for (let i = 0; i < 5; i++) await c.uploadFile({ key: `${p}/l${i}.txt`, content: `${i}`, tags: { listing: p, [`${p}k${i}`]: `v${i}` } })
    const files = await c.list.files({ tags: { listing: p }, pageSize: 2, sortField: 'key', sortDirection: 'asc' }).collect({ limit: 3 })
    const all: string[] = []
    for await (const f of c.list.files({ tags: { listing: p }, pageSize: 2 })) all.push(f.key)
    const tags = (await c.list.fileTags({ pageSize: 2 }).collect()).filter((t) => t.startsWith(p))
    const values = await c.list.fileTagValues({ tag: `${p}k3`, pageSize: 1 }).collect()
    return { files: files.map((f) => f.key), all: all.sort(), tags, values }
  },
  'knowledge bases': async (c, p) => {
    const created = await c.createKnowledgeBase({ name: `${p} docs`, tags: { run: p, old: 'x' } })
    const updated = await c.updateKnowledgeBase({ id: created.knowledgeBase.id, name: `${p} docs v2`, tags: { old: null } })
    const listed = (await c.list.knowledgeBases({ tags: { run: p } }).collect()).map((kb) => kb.name)
    const deleted = await c.deleteKnowledgeBase({ id: created.knowledgeBase.id })
    return { created, updated, listed, deleted }
  },
  'setFilePassages, listFilePassages (both ways) and searchFiles': async (c, p) => {
    await c.uploadFile({ key: `${p}/manual.md`, content: '# Manual', tags: { run: p } })
    const set = await c.setFilePassages({
      id: `${p}/manual.md`,
      passages: [{ content: 'Manual', type: 'title' }, { content: `Zebras ${p} graze at dawn`, pageNumber: 1 }, { content: `Zebras ${p} sleep standing`, type: 'list', pageNumber: 2 }],
    })
    const file = await eventually(async () => {
      const latest = (await c.getFile({ id: `${p}/manual.md` })).file
      return latest.status === 'indexing_pending' ? undefined : latest
    }, `${p}/manual.md indexed`)
    const strip = (list: Array<{ id: string; content: string; meta: unknown }>) => list.map(({ content, meta }) => ({ content, meta }))
    const page = await c.listFilePassages({ id: `${p}/manual.md`, limit: 2 })
    const all = await c.list.filePassages({ id: `${p}/manual.md`, limit: 1 }).collect()
    const search = async (query: Parameters<Client['searchFiles']>[0]) =>
      (await c.searchFiles(query)).passages.map(({ score, file: hit, context, ...rest }) => ({
        ...rest,
        key: hit.key,
        positive: score > 0,
        ...(context ? { context: context.map(({ id, ...entry }) => ({ ...entry, hasId: typeof id === 'string' })) } : {}),
      }))
    return {
      set,
      status: file.status,
      page: strip(page.passages),
      hasNext: typeof page.meta.nextToken === 'string',
      all: strip(all),
      plain: await search({ query: 'zebras', tags: { run: p } }),
      context: await search({ query: 'graze', tags: { run: p }, withContext: true, includeBreadcrumb: true, contextDepth: 1 }),
      consolidated: await search({ query: 'zebras', tags: { run: p }, consolidate: true }),
      tooLong: await outcome(() => c.searchFiles({ query: 'q'.repeat(1025) })),
    }
  },
  'invalid input is InvalidPayload naming the field': async (c, p) => outcome(() => c.upsertFile({ key: `${p}/bad.txt`, size: -5 })),
  'an altered nextToken is InvalidQuery': async (c) => outcome(() => c.listFiles({ nextToken: 'bogus' })),
  'tables: create, rows, find, group, update, upsert, delete': async (c, p) => {
    const name = `${p}OrdersTable`
    const created = await c.createTable({ name, schema: { customer: '', total: 0 }, keyColumn: 'customer', tags: { run: p } })
    const rows = await c.createTableRows({
      table: name,
      rows: [
        { customer: 'ada', total: 10 },
        { customer: 'bob', total: 20 },
        { customer: 'cy', total: 30 },
      ],
    })
    const found = await c.findTableRows({ table: name, filter: { total: { $gte: 15 } }, orderBy: 'total', orderDirection: 'desc', limit: 1 })
    const grouped = await c.findTableRows({ table: name, group: { total: ['sum', 'avg'] } })
    const updated = await c.updateTableRows({ table: name, rows: [{ id: rows.rows[0]!.id, total: 11 }] })
    const upserted = await c.upsertTableRows({ table: name, keyColumn: 'customer', rows: [{ customer: 'bob', total: 21 }, { customer: 'dee', total: 40 }] })
    const row = await c.getTableRow({ table: name, id: rows.rows[1]!.id })
    const deleted = await c.deleteTableRows({ table: name, ids: [rows.rows[2]!.id] })
    const missingRow = await outcome(() => c.getTableRow({ table: name, id: rows.rows[2]!.id }))
    const table = await c.getTable({ table: name })
    const listed = await c.listTables({ tags: { run: p } })
    return { created, rows, found, grouped, updated, upserted, row, deleted, missingRow, table, listed: listed.tables }
  },
  'tables: getOrCreate, rename, duplicate, delete, errors': async (c, p) => {
    const name = `${p}ShapeTable`
    const first = await c.getOrCreateTable({ table: name, schema: { a: '' } })
    const second = await c.getOrCreateTable({ table: name, schema: { a: '' } })
    const renamed = await c.renameTableColumn({ table: name, name: 'a', newName: 'alpha' })
    const duplicate = await c.duplicateTable({ sourceTableId: name, tableName: `${p}CopyTable`, schemaOnly: true })
    const badRow = await outcome(() => c.createTableRows({ table: name, rows: [{ alpha: 5 }] }))
    const badFilter = await outcome(() => c.findTableRows({ table: name, filter: { alpha: { $bogus: 1 } } as never }))
    const deleted = await c.deleteTable({ table: `${p}CopyTable` })
    const missing = await outcome(() => c.getTable({ table: `${p}CopyTable` }))
    return { first, second, renamed, duplicate, badRow, badFilter, deleted, missing }
  },
}

describe('compatibility: @botpress/client and botshelf client give the same results against the same server', () => {
  let service: ClientTestService
  let theirs: Client
  let ours: Client

  beforeAll(async () => {
    service = await startClientService({ listen: true })
    theirs = service.botpressClient('bot') as unknown as Client
    ours = service.client('bot')
  })
  afterAll(async () => {
    await service.close()
  })

  for (const [name, scenario] of Object.entries(scenarios)) {
    it(name, async () => {
      const official = normalize(await outcome(() => scenario(theirs, 'pfxOfficial')), 'pfxOfficial')
      const botshelf = normalize(await outcome(() => scenario(ours, 'pfxBotshelf')), 'pfxBotshelf')
      expect(botshelf).toEqual(official)
      expect(JSON.stringify(official)).not.toContain('"error":{"isApiError":false')
    })
  }

  it('an unknown token is Unauthorized for both', async () => {
    const bad = { apiUrl: service.url, token: 'bp_pat_nope', botId: service.botId }
    const a = normalize(await outcome(() => new official.Client(bad).listFiles({})), 'x')
    const b = normalize(await outcome(() => service.client('bot', { token: 'bp_pat_nope' }).listFiles({})), 'x')
    expect(b).toEqual(a)
    expect(a).toMatchObject({ error: { type: 'Unauthorized', code: 401, isApiError: true } })
  })

  it('errors of either client are recognised by the other isApiError', async () => {
    const { isApiError } = await import('../../src/client/index.js')
    const fromOfficial = await theirs.getFile({ id: 'nope.txt' }).catch((e: unknown) => e)
    const fromOurs = await ours.getFile({ id: 'nope.txt' }).catch((e: unknown) => e)
    expect(isApiError(fromOfficial)).toBe(true)
    expect(official.isApiError(fromOurs)).toBe(true)
  })
})
