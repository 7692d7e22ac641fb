import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { UpsertFileInput } from '../store/index.js'
import { openSqliteBackend, type SqliteBackend } from '../store/sqlite/backend.js'
import { silentLogger, toLogger } from '../http/logger.js'
import { FilesService, type FilesEvent } from './files-service.js'

const BOT = 'bot_1'

async function* bytes(text: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(text)
}

function definition(key: string, size: number): UpsertFileInput {
  return { botId: BOT, key, ownerScope: '', owner: { type: 'bot', id: BOT }, size, contentType: 'text/plain', tags: {}, metadata: {}, accessPolicies: [], index: false, expiresAt: null }
}

let backend: SqliteBackend
let service: FilesService
let events: string[]
beforeEach(async () => {
  backend = await openSqliteBackend({ memory: true })
  service = new FilesService(backend, silentLogger)
  events = []
  service.on((event: FilesEvent) => void events.push(`${event.type} ${event.file.key}${event.type === 'content-committed' ? ` via ${event.via}` : ''}`))
})
afterEach(async () => {
  await backend.close()
})

describe('FilesService', () => {
  it('tells subscribers of every content commit, replacement and deletion, after the change', async () => {
    const { file } = await service.define(definition('a.txt', 3), () => undefined)
    await service.uploadContent(file, file.version, bytes('one'), { expectedBytes: 3 })
    const { file: v2 } = await service.define(definition('a.txt', 3), () => undefined)
    const replaced = await service.uploadContent(v2, v2.version, bytes('two'), { expectedBytes: 3 })
    const copy = await service.copy(replaced, { botId: BOT, key: 'b.txt', ownerScope: '', owner: { type: 'bot', id: BOT } }, () => undefined)
    await service.createWithContent(definition('export.csv', 0), bytes('id\r\n'))
    await service.delete(copy)
    expect(events).toEqual([
      'content-committed a.txt via upload',
      'content-committed a.txt via upload',
      'version-replaced a.txt',
      'content-committed b.txt via copy',
      'content-committed export.csv via export',
      'file-deleted b.txt',
    ])
  })

  it('deletes the new blob when its version was superseded during the upload, and tells no one', async () => {
    const { file } = await service.define(definition('a.txt', 3), () => undefined)
    await service.define(definition('a.txt', 3), () => undefined)
    await expect(service.uploadContent(file, 1, bytes('old'), { expectedBytes: 3 })).rejects.toMatchObject({ code: 'VERSION_SUPERSEDED', status: 410 })
    const swept = await backend.blobs.sweep(() => new Set<string>())
    expect(swept.orphans).toBe(0)
    expect(events).toEqual([])
  })

  it('runs the existing-file check inside the transaction: a refusal writes nothing', async () => {
    await service.define(definition('a.txt', 3), () => undefined)
    await expect(
      service.define({ ...definition('a.txt', 5), tags: { changed: 'yes' } }, (existing) => {
        if (existing) throw new Error('refused')
      }),
    ).rejects.toThrow('refused')
    const [file] = await backend.files.getByKey(BOT, 'a.txt')
    expect(file).toMatchObject({ version: 1, declaredSize: 3, tags: {} })
  })

  it('keeps a failing subscriber from undoing the change or silencing the others', async () => {
    const logged: string[] = []
    const noisy = new FilesService(backend, toLogger({ log: (level, msg) => void logged.push(`${level} ${msg}`) }))
    const seen: string[] = []
    noisy.on(() => {
      throw new Error('subscriber bug')
    })
    noisy.on((event) => void seen.push(event.type))
    const { file } = await noisy.define(definition('a.txt', 3), () => undefined)
    const done = await noisy.uploadContent(file, file.version, bytes('one'), { expectedBytes: 3 })
    expect(done.status).toBe('upload_completed')
    expect(seen).toEqual(['content-committed'])
    expect(logged).toEqual(['error a files event subscriber failed'])
  })
})
