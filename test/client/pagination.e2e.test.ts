import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Client, ResourceNotFoundError } from '../../src/client/index.js'
import { startClientService, type ClientTestService } from './service.js'

describe('client e2e: list collections page through the real service', () => {
  let service: ClientTestService
  let client: Client
  /** Every request the client sent, as `METHOD path?query`. */
  const sent: string[] = []

  beforeAll(async () => {
    service = await startClientService()
    client = service.client('bot', {
      fetch: (request: Request) => {
        const url = new URL(request.url)
        sent.push(`${request.method} ${url.pathname}${url.search}`)
        return service.app.fetch(request)
      },
    })
    for (let i = 0; i < 7; i++) {
      await client.uploadFile({ key: `page/${i}.txt`, content: String(i), tags: { [`tag${i}`]: 'x', shared: `v${i}` } })
    }
    for (let i = 0; i < 5; i++) await client.createKnowledgeBase({ name: `kb${i}` })
    for (let i = 0; i < 5; i++) await client.createTable({ name: `page${i}Table`, schema: { a: '' } })
  })
  afterAll(async () => {
    await service.close()
  })

  const listRequests = (path: string) => sent.filter((line) => line.startsWith(`GET ${path}?`) || line === `GET ${path}`)

  it('iterates files across several pages with for await, passing nextToken', async () => {
    sent.length = 0
    const keys: string[] = []
    for await (const file of client.list.files({ pageSize: 2, sortField: 'key', sortDirection: 'asc' })) keys.push(file.key)
    expect(keys).toEqual(['page/0.txt', 'page/1.txt', 'page/2.txt', 'page/3.txt', 'page/4.txt', 'page/5.txt', 'page/6.txt'])
    const requests = listRequests('/v1/files')
    expect(requests).toHaveLength(4)
    expect(requests[0]).not.toContain('nextToken')
    expect(requests.slice(1).every((r) => r.includes('nextToken='))).toBe(true)
  })

  it('collect({ limit }) stops requesting as soon as the limit is reached', async () => {
    sent.length = 0
    const files = await client.list.files({ pageSize: 2, sortField: 'key', sortDirection: 'asc' }).collect({ limit: 4 })
    expect(files.map((f) => f.key)).toEqual(['page/0.txt', 'page/1.txt', 'page/2.txt', 'page/3.txt'])
    expect(listRequests('/v1/files')).toHaveLength(2)
    sent.length = 0
    expect(await client.list.files({ pageSize: 2 }).collect({ limit: 3 })).toHaveLength(3)
    expect(listRequests('/v1/files')).toHaveLength(2)
  })

  it('keeps the filters on every page', async () => {
    sent.length = 0
    const all = await client.list.files({ pageSize: 1, tags: { tag3: 'x' } }).collect()
    expect(all.map((f) => f.key)).toEqual(['page/3.txt'])
    expect(listRequests('/v1/files').every((r) => r.includes('tags.tag3=x'))).toBe(true)
  })

  it('pages through tags, tag values, knowledge bases and tables', async () => {
    const tags = await client.list.fileTags({ pageSize: 3 }).collect()
    expect(tags).toEqual(expect.arrayContaining(['shared', 'tag0', 'tag6']))
    expect(tags).toHaveLength(8)
    const values = await client.list.fileTagValues({ tag: 'shared', pageSize: 2 }).collect()
    expect(values).toEqual(['v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6'])
    const kbs = await client.list.knowledgeBases({ pageSize: 2 }).collect()
    expect(kbs.map((kb) => kb.name).sort()).toEqual(['kb0', 'kb1', 'kb2', 'kb3', 'kb4'])
    sent.length = 0
    const tables = await client.list.tables({ pageSize: 2 }).collect()
    expect(tables.map((t) => t.name)).toEqual(['page0Table', 'page1Table', 'page2Table', 'page3Table', 'page4Table'])
    expect(listRequests('/v1/tables')).toHaveLength(3)
  })

  it('surfaces the service error of a list (filePassages of a missing file), and an empty list of a file without passages', async () => {
    await expect(client.list.filePassages({ id: 'page/missing.txt' }).collect()).rejects.toBeInstanceOf(ResourceNotFoundError)
    expect(await client.list.filePassages({ id: 'page/0.txt' }).collect()).toEqual([])
  })

  it('passes the call options (abort signal) to every page request', async () => {
    const controller = new AbortController()
    const iterator = client.list.files({ pageSize: 2 }, { signal: controller.signal })[Symbol.asyncIterator]()
    await iterator.next()
    await iterator.next()
    controller.abort()
    await expect(iterator.next()).rejects.toMatchObject({ code: 'ERR_ABORTED' })
  })
})
