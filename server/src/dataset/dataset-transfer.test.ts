import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSqliteBackend, type SqliteBackend } from '../store/open-backend.js'
import { exportDataset } from './export-dataset.js'
import { importDataset } from './import-dataset.js'
import type { TransferPhase, TransferProgress } from './progress.js'

// Export and import between two in-memory SQLite backends: what a Ctrl-C (an aborted signal) leaves behind at each
// phase, and that the counts a progress report gets add up.
let folder: string
let source: SqliteBackend
let target: SqliteBackend

async function seed(backend: SqliteBackend): Promise<void> {
  const botId = (await backend.auth.createBot({ name: 'support' })).id
  await backend.auth.createToken({ botId, role: 'bot' })
  for (let i = 0; i < 3; i++) {
    const { file } = await backend.files.upsert({
      botId, key: `f${i}.txt`, ownerScope: '', owner: { type: 'bot', id: botId }, size: 5, contentType: 'text/plain',
      tags: { n: String(i) }, metadata: {}, accessPolicies: [], index: false, expiresAt: null,
    })
    const blob = await backend.blobs.write((async function* () { yield new TextEncoder().encode(`hey ${i}`) })())
    await backend.files.completeUpload(file.id, file.version, blob)
  }
  await backend.tables.createTable(botId, { name: 'ordersTable', schema: { total: 0 } })
  await backend.tables.importRows(botId, 'ordersTable', Array.from({ length: 1200 }, (_, i) => ({ total: i })))
}

/** A progress report that records totals and advances, and aborts when `phase` first advances. */
function recorder(abortOn?: { phase: TransferPhase; controller: AbortController }): TransferProgress & { seen: Record<string, { total: number; done: number }> } {
  const seen: Record<string, { total: number; done: number }> = {}
  return {
    seen,
    start(phase, total) {
      seen[phase] = { total, done: 0 }
      return {
        advance(amount) {
          seen[phase]!.done += amount
          if (abortOn?.phase === phase) abortOn.controller.abort(new Error('interrupted'))
        },
        done() {},
      }
    },
  }
}

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'botshelf-transfer-'))
  source = await openSqliteBackend({ memory: true })
  target = await openSqliteBackend({ memory: true })
  await seed(source)
})
afterEach(async () => {
  await source.close()
  await target.close()
  await rm(folder, { recursive: true, force: true })
})

async function contentFiles(backend: SqliteBackend): Promise<number> {
  return (await readdir(backend.contentDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).length
}

describe('exportDataset and importDataset', () => {
  it('copies everything, and the progress totals are what was done', async () => {
    const exportProgress = recorder()
    await exportDataset(source, join(folder, 'archive'), { progress: exportProgress })
    expect(exportProgress.seen['metadata']!.done).toBe(exportProgress.seen['metadata']!.total)
    expect(exportProgress.seen['content']).toEqual({ total: 15, done: 15 })
    const importProgress = recorder()
    const { manifest } = await importDataset(target, join(folder, 'archive'), { progress: importProgress })
    expect(manifest.totals).toMatchObject({ tables: 1, rows: 1200, blobs: 3, blobBytes: 15 })
    expect(importProgress.seen['metadata']).toEqual({ total: manifest.totals.records + 1200, done: manifest.totals.records + 1200 })
    const [bot] = await target.auth.listBots()
    expect((await target.tables.getTable(bot!.id, 'ordersTable')).rows).toBe(1200)
    expect(await contentFiles(target)).toBe(3)
  })

  it('carries computed cells with their rows: settled ones kept, the others queued in the target (decision 1425)', async () => {
    const [bot] = await source.auth.listBots()
    const botId = bot!.id
    const schema = { a: { type: 'number' }, doubled: { type: 'number', 'x-zui': { computed: { action: 'code', code: 'return row.a * 2', dependencies: ['a'] } } } }
    const table = await source.tables.createTable(botId, { name: 'labelsTable', schema, isComputeEnabled: true } as never)
    await source.tables.importRows(botId, table.id, [{ a: 1, doubled: 2 }, { a: 2, doubled: null }, { a: 3 }])
    const at = '2026-03-04T05:06:07.000Z'
    await source.computed.restoreCells(botId, table.id, [
      { rowId: 1, column: 'doubled', status: 'computed', error: null, updatedBy: 'code', updatedAt: at, stale: false },
      { rowId: 2, column: 'doubled', status: 'failed', error: 'boom', updatedBy: 'code', updatedAt: at, stale: false },
    ])
    await exportDataset(source, join(folder, 'archive'))
    await importDataset(target, join(folder, 'archive'))
    const byRow = new Map((await target.computed.cellsOf(table.id, [1, 2, 3])).map((cell) => [cell.rowId, cell]))
    expect(byRow.get(1)).toMatchObject({ status: 'computed', updatedBy: 'code', updatedAt: at, stale: false })
    expect(byRow.get(2)).toMatchObject({ status: 'failed', error: 'boom', stale: false })
    expect(byRow.get(3)).toMatchObject({ status: 'pending', stale: true })
    expect(await target.computed.tablesWithDueCells()).toEqual([{ botId, tableId: table.id }])
    const queued = await target.jobs.list({ kind: 'tables.compute' })
    expect(queued.map((job) => job.payload)).toEqual([{ botId, tableId: table.id }])
  })

  it('an export aborted while reading metadata or copying content leaves nothing at --out', async () => {
    for (const phase of ['metadata', 'content'] as const) {
      const controller = new AbortController()
      await expect(exportDataset(source, join(folder, phase), { progress: recorder({ phase, controller }), signal: controller.signal })).rejects.toThrow('interrupted')
      expect(await readdir(folder)).toEqual([])
    }
  })

  it('an import aborted while copying content or writing records leaves the target empty, content included', async () => {
    await exportDataset(source, join(folder, 'archive'))
    for (const phase of ['content', 'metadata'] as const) {
      const controller = new AbortController()
      await expect(importDataset(target, join(folder, 'archive'), { progress: recorder({ phase, controller }), signal: controller.signal })).rejects.toThrow('interrupted')
      expect(await target.dataset.isEmpty()).toBe(true)
      expect(await contentFiles(target)).toBe(0)
    }
    // And the archive still imports afterwards.
    await importDataset(target, join(folder, 'archive'))
    expect(await target.dataset.count('files')).toBe(3)
  })

  it('refuses an existing, non-empty --out and a folder that is not an archive', async () => {
    await exportDataset(source, join(folder, 'archive'))
    await expect(exportDataset(source, join(folder, 'archive'))).rejects.toMatchObject({ code: 'DESTINATION_EXISTS' })
    await expect(importDataset(target, folder)).rejects.toMatchObject({ code: 'ARCHIVE_INVALID', message: expect.stringContaining('not a botshelf archive') })
  })
})
