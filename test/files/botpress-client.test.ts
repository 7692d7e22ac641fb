import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'

let service: TestService
beforeAll(async () => {
  service = await startTestService({ listen: true })
})
afterAll(async () => {
  await service.close()
})

describe('the official @botpress/client against botshelf', () => {
  it('upserts, uploads, reads, lists, updates, copies and deletes files unchanged', async () => {
    const client = service.botpressClient('bot')

    const { file: upserted } = await client.upsertFile({ key: 'docs/hello.txt', size: 11, tags: { lang: 'en' } })
    expect(upserted.status).toBe('upload_pending')
    const put = await fetch(upserted.uploadUrl, { method: 'PUT', body: 'hello world' })
    expect(put.status).toBe(200)

    const uploaded = await client.uploadFile({ key: 'docs/second.md', content: '# Second', tags: { lang: 'fr' }, accessPolicies: ['public_content'] })
    expect(uploaded.file.key).toBe('docs/second.md')

    const { file } = await client.getFile({ id: 'docs/hello.txt' })
    expect(file).toMatchObject({ status: 'upload_completed', size: 11, contentType: 'text/plain', tags: { lang: 'en' } })
    expect(await (await fetch(file.url)).text()).toBe('hello world')
    const second = await client.getFile({ id: uploaded.file.id })
    expect(second.file).toMatchObject({ status: 'upload_completed', size: 8, contentType: 'text/markdown' })
    expect(await (await fetch(second.file.url)).text()).toBe('# Second')

    for (let i = 0; i < 5; i++) await client.upsertFile({ key: `bulk/${i}.bin`, size: 1, tags: { bulk: 'yes' } })
    const all = await client.list.files({ pageSize: 2 } as never).collect()
    expect(all.map((f) => f.key).sort()).toEqual(['bulk/0.bin', 'bulk/1.bin', 'bulk/2.bin', 'bulk/3.bin', 'bulk/4.bin', 'docs/hello.txt', 'docs/second.md'])
    const bulk = await client.list.files({ tags: { bulk: 'yes' } }).collect({ limit: 3 })
    expect(bulk).toHaveLength(3)
    const filtered = await client.listFiles({ tags: { lang: ['en', 'fr'] } })
    expect(filtered.files.map((f) => f.key).sort()).toEqual(['docs/hello.txt', 'docs/second.md'])

    const { file: updated } = await client.updateFileMetadata({ id: 'docs/hello.txt', tags: { lang: null, reviewed: 'yes' }, metadata: { by: 'test' } })
    expect(updated.tags).toEqual({ reviewed: 'yes' })
    expect(updated.metadata).toEqual({ by: 'test' })

    const { file: copy } = await client.copyFile({ idOrKey: 'docs/hello.txt', destinationKey: 'docs/copy.txt' })
    expect(copy).toMatchObject({ key: 'docs/copy.txt', size: 11 })
    await expect(client.copyFile({ idOrKey: 'docs/hello.txt', destinationKey: 'docs/copy.txt' })).rejects.toMatchObject({ type: 'AlreadyExists' })
    await client.copyFile({ idOrKey: 'docs/second.md', destinationKey: 'docs/copy.txt', overwrite: true })
    expect(await (await fetch((await client.getFile({ id: 'docs/copy.txt' })).file.url)).text()).toBe('# Second')

    const tags = await client.list.fileTags({}).collect()
    expect(tags).toEqual(['bulk', 'lang', 'reviewed'])
    const values = await client.list.fileTagValues({ tag: 'lang' }).collect()
    expect(values).toEqual(['fr'])

    await client.deleteFile({ id: 'docs/hello.txt' })
    const missing = await client.getFile({ id: 'docs/hello.txt' }).catch((error: unknown) => error)
    expect(missing).toMatchObject({ type: 'ResourceNotFound', code: 404 })
    const { isApiError } = await import('node:module').then((m) => m.createRequire(import.meta.url)('@botpress/client') as typeof import('@botpress/client'))
    expect(isApiError(missing)).toBe(true)
  })

  it('an integration client sees only its own files and those shared with integrations', async () => {
    const bot = service.botpressClient('bot')
    const alpha = service.botpressClient('alpha')
    await bot.upsertFile({ key: 'private-to-bot.txt', size: 1 })
    await bot.upsertFile({ key: 'shared.txt', size: 1, accessPolicies: ['integrations'] })
    await alpha.upsertFile({ key: 'alpha-own.txt', size: 1 })
    const seen = (await alpha.list.files({}).collect()).map((f) => f.key)
    expect(seen).toContain('shared.txt')
    expect(seen).toContain('alpha-own.txt')
    expect(seen).not.toContain('private-to-bot.txt')
    const own = await alpha.getFile({ id: 'alpha-own.txt' })
    expect(own.file.owner).toEqual({ type: 'integration', name: 'alpha', alias: 'alpha' })
    await expect(alpha.deleteFile({ id: 'shared.txt' })).rejects.toMatchObject({ type: 'Forbidden' })
    await expect(alpha.getFile({ id: 'private-to-bot.txt' })).rejects.toMatchObject({ type: 'ResourceNotFound' })
  })

  it('search answers in the shape the client types, and its errors are typed', async () => {
    const client = service.botpressClient('bot')
    expect(await client.searchFiles({ query: 'anything' })).toEqual({ passages: [] })
    await expect(client.searchFiles({ query: 'x'.repeat(1025) })).rejects.toMatchObject({ type: 'InvalidPayload' })
  })
})
