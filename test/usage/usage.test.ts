import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { usageCommand } from '../../server/src/cli/index.js'
import { uploadText } from '../files/helpers.js'
import { settledFile, startSearchService, type SearchTestService } from '../files/search-helpers.js'

// File-backed SQLite: `botshelf usage` reads the data folder beside the running service.
let service: SearchTestService
beforeAll(async () => {
  service = await startSearchService({ backend: 'sqlite' })
})
afterAll(async () => {
  await service.close()
})

const MANUAL = '# Manual\n\nPaddles are made of carbon.\n\nStore the paddle dry, café ☕.'
const NOTES = 'plain notes, not indexed'
const OTHER = 'a file of the other bot'
const bytes = (text: string): number => new TextEncoder().encode(text).byteLength

/** Runs `botshelf usage` on the service's data folder and returns its exit code and output. */
async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  let out = ''
  const io = { stdout: { write: (s: string) => ((out += s), true) }, stderr: { write: () => true } } as never
  const code = await usageCommand(['--data', service.dataDir, ...args], io)
  return { code, out }
}

describe('storage accounting', () => {
  it('measures File Storage and Vector DB Storage per bot, as app.admin.usage() and botshelf usage show them', async () => {
    const manual = await uploadText(service, 'manual.md', MANUAL, { index: true })
    expect((await settledFile(service, manual.file.id)).status).toBe('indexing_completed')
    await uploadText(service, 'notes.txt', NOTES)
    await uploadText(service, 'other.txt', OTHER, {}, 'otherBot')

    const passages = (await service.request('GET', `/v1/files/${manual.file.id}/passages`, { query: { limit: 200 } })).body.passages as Array<{ content: string }>
    expect(passages.length).toBeGreaterThan(1)
    const textBytes = passages.reduce((total, p) => total + bytes(p.content), 0)

    const usage = await service.app.admin.usage()
    const bot = usage.bots.find((b) => b.botId === service.botId)!
    expect(bot.fileStorage).toEqual({ files: 2, bytes: bytes(MANUAL) + bytes(NOTES) })
    // Each passage holds its text and one float32 vector of the test embedder's 64 dimensions.
    expect(bot.vectorStorage).toEqual({ passages: passages.length, bytes: textBytes + passages.length * 64 * 4 })
    const other = usage.bots.find((b) => b.botId === service.otherBotId)!
    expect(other.fileStorage).toEqual({ files: 1, bytes: bytes(OTHER) })
    expect(other.vectorStorage).toEqual({ passages: 0, bytes: 0 })
    expect(usage.total.fileStorage.bytes).toBe(bytes(MANUAL) + bytes(NOTES) + bytes(OTHER))
    expect(usage.total.vectorStorage.bytes).toBe(bot.vectorStorage.bytes)

    const json = await cli('--json')
    expect(json.code).toBe(0)
    expect(JSON.parse(json.out)).toEqual(usage)
    const table = await cli()
    expect(table.code).toBe(0)
    expect(table.out.split('\n')[0]).toMatch(/^bot\s+files\s+file storage\s+passages\s+vector db storage$/)
    expect(table.out).toMatch(new RegExp(`^total\\s+3\\s+${usage.total.fileStorage.bytes} B\\s+${passages.length}\\s+`, 'm'))
  })

  it('gives the space back when a file is deleted', async () => {
    const { file } = await uploadText(service, 'temp.md', '# Temp\n\nA passage to delete.', { index: true })
    expect((await settledFile(service, file.id)).status).toBe('indexing_completed')
    const before = (await service.app.admin.usage()).bots.find((b) => b.botId === service.botId)!
    expect((await service.request('DELETE', `/v1/files/${file.id}`)).status).toBe(200)
    const after = (await service.app.admin.usage()).bots.find((b) => b.botId === service.botId)!
    expect(after.fileStorage.files).toBe(before.fileStorage.files - 1)
    expect(after.fileStorage.bytes).toBe(before.fileStorage.bytes - bytes('# Temp\n\nA passage to delete.'))
    expect(after.vectorStorage.passages).toBeLessThan(before.vectorStorage.passages)
  })
})
