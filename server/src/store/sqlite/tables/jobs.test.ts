import { beforeEach, describe, expect, it } from 'vitest'
import { TablesStoreError } from '../../tables/errors.js'
import { runMigrations } from '../migrations.js'
import { openDatabase, type Sqlite } from '../connect.js'
import { tablesMigrations } from './migrations.js'
import { SqliteTablesStore } from './tables-port.js'

const BOT = 'bot_1'
let db: Sqlite
let store: SqliteTablesStore
let tableId: string

beforeEach(() => {
  db = openDatabase(':memory:')
  runMigrations(db, tablesMigrations)
  let clock = Date.parse('2026-01-01T00:00:00Z')
  store = new SqliteTablesStore(db, { now: () => new Date((clock += 1000)) })
  tableId = store.createTable(BOT, { name: 'ordersTable', schema: { total: 0 } }).id
})

describe('table jobs', () => {
  it('records a job pending, with no failure and nothing committed', () => {
    const job = store.createJob(BOT, tableId, 'import', { inputFileId: 'file_1' })
    expect(job).toEqual({
      id: expect.stringMatching(/^tjob_/), botId: BOT, tableId, type: 'import', status: 'pending', progress: 0,
      inputFileId: 'file_1', outputFileId: null, createdAt: '2026-01-01T00:00:03.000Z', updatedAt: '2026-01-01T00:00:03.000Z',
    })
    expect(store.getJob(job.id)).toEqual({ ...job, error: null, rowsCommitted: 0 })
  })

  it('keeps the resume point across changes that do not give one', () => {
    const job = store.createJob(BOT, tableId, 'import')
    store.updateJob(job.id, { status: 'in_progress', progress: 0.5, rowsCommitted: 2000 })
    store.updateJob(job.id, { progress: 0.6 })
    expect(store.getJob(job.id)).toMatchObject({ status: 'in_progress', progress: 0.6, rowsCommitted: 2000 })
  })

  it('keeps the failure reason until the job moves on, and shows it on the wire job of a failed job', () => {
    const job = store.createJob(BOT, tableId, 'export')
    expect(job).not.toHaveProperty('error')
    const failed = store.updateJob(job.id, { status: 'failed', error: 'rows.3.total: expected number' })
    expect(failed).toMatchObject({ status: 'failed', error: 'rows.3.total: expected number' })
    expect(failed).not.toHaveProperty('rowsCommitted')
    expect(store.listJobs(BOT, 'ordersTable')[0]).toMatchObject({ error: 'rows.3.total: expected number' })
    store.updateJob(job.id, { progress: 0.5 })
    expect(store.getJob(job.id)).toMatchObject({ status: 'failed', error: 'rows.3.total: expected number' })
    store.updateJob(job.id, { status: 'in_progress' })
    expect(store.getJob(job.id)).toMatchObject({ status: 'in_progress', error: null })
    expect(store.listJobs(BOT, 'ordersTable')[0]).not.toHaveProperty('error')
  })

  it('answers undefined for an unknown job, refuses to update one, and forgets jobs of a deleted table', () => {
    expect(store.getJob('tjob_nope')).toBeUndefined()
    expect(() => store.updateJob('tjob_nope', { status: 'failed' })).toThrow(TablesStoreError)
    const job = store.createJob(BOT, tableId, 'import')
    store.deleteTable(BOT, tableId)
    expect(store.getJob(job.id)).toBeUndefined()
  })

  it('lists a table’s jobs newest first', () => {
    const first = store.createJob(BOT, tableId, 'import')
    const second = store.createJob(BOT, tableId, 'export')
    expect(store.listJobs(BOT, 'ordersTable').map((j) => j.id)).toEqual([second.id, first.id])
  })
})

describe('tables-0002-job-rows-committed', () => {
  it('gives jobs recorded before it a resume point of 0', () => {
    const old = openDatabase(':memory:')
    runMigrations(old, tablesMigrations.slice(0, 1))
    old.exec(`INSERT INTO tables_jobs (id, bot_id, table_id, type, status, progress, created_at, updated_at)
      VALUES ('tjob_old', 'bot_1', 'table_x', 'import', 'in_progress', 0.5, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`)
    runMigrations(old, tablesMigrations)
    expect(new SqliteTablesStore(old).getJob('tjob_old')).toMatchObject({ status: 'in_progress', error: null, rowsCommitted: 0 })
  })
})
