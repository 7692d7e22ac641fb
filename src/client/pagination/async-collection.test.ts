import { describe, expect, it } from 'vitest'
import { PaginationError } from '../errors/client-errors.js'
import { AsyncCollection, type Page } from './async-collection.js'

/** A lister over fixed pages that records which tokens were requested. */
function pagedLister(pages: Array<Page<number>>) {
  const requested: Array<string | undefined> = []
  const lister = async ({ nextToken }: { nextToken?: string }): Promise<Page<number>> => {
    requested.push(nextToken)
    const index = nextToken === undefined ? 0 : Number(nextToken.replace('t', ''))
    const page = pages[index]
    if (!page) throw new Error(`no page ${index}`)
    return page
  }
  return { lister, requested }
}

const threePages: Array<Page<number>> = [
  { items: [1, 2, 3], meta: { nextToken: 't1' } },
  { items: [4, 5, 6], meta: { nextToken: 't2' } },
  { items: [7], meta: {} },
]

describe('AsyncCollection', () => {
  it('iterates items across pages, passing each nextToken', async () => {
    const { lister, requested } = pagedLister(threePages)
    const seen: number[] = []
    for await (const item of new AsyncCollection(lister)) seen.push(item)
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(requested).toEqual([undefined, 't1', 't2'])
  })

  it('collects everything without a limit', async () => {
    const { lister } = pagedLister(threePages)
    expect(await new AsyncCollection(lister).collect()).toEqual([1, 2, 3, 4, 5, 6, 7])
  })

  it('stops requesting as soon as the limit is reached, even at a page boundary', async () => {
    const { lister, requested } = pagedLister(threePages)
    expect(await new AsyncCollection(lister).collect({ limit: 3 })).toEqual([1, 2, 3])
    expect(requested).toEqual([undefined])
  })

  it('stops in the middle of a page', async () => {
    const { lister, requested } = pagedLister(threePages)
    expect(await new AsyncCollection(lister).collect({ limit: 5 })).toEqual([1, 2, 3, 4, 5])
    expect(requested).toEqual([undefined, 't1'])
  })

  it('sends no request for limit 0', async () => {
    const { lister, requested } = pagedLister(threePages)
    expect(await new AsyncCollection(lister).collect({ limit: 0 })).toEqual([])
    expect(requested).toEqual([])
  })

  it('stops requesting when a for-await loop breaks', async () => {
    const { lister, requested } = pagedLister(threePages)
    for await (const item of new AsyncCollection(lister)) if (item === 2) break
    expect(requested).toEqual([undefined])
  })

  it('treats an empty-string nextToken as the last page', async () => {
    const { lister } = pagedLister([{ items: [1], meta: { nextToken: '' } }])
    expect(await new AsyncCollection(lister).collect()).toEqual([1])
  })

  it('throws a clear error on a response without meta', async () => {
    const { lister } = pagedLister([{ items: [1], meta: undefined }])
    const error = await new AsyncCollection(lister, 'listFiles').collect().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PaginationError)
    expect((error as Error).message).toMatch(/^listFiles: the response has no `meta` object/)
  })

  it('throws instead of looping when a nextToken repeats', async () => {
    let calls = 0
    const lister = async (): Promise<Page<number>> => {
      calls++
      return { items: [calls], meta: { nextToken: 'same' } }
    }
    const error = await new AsyncCollection(lister, 'listFileTags').collect().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PaginationError)
    expect((error as Error).message).toContain('nextToken "same" a second time')
    expect(calls).toBe(2)
  })

  it('throws when a token cycles back to an earlier one', async () => {
    const pages: Array<Page<number>> = [
      { items: [0], meta: { nextToken: 't1' } },
      { items: [1], meta: { nextToken: 't2' } },
      { items: [2], meta: { nextToken: 't1' } },
    ]
    const { lister } = pagedLister(pages)
    await expect(new AsyncCollection(lister).collect()).rejects.toBeInstanceOf(PaginationError)
  })

  it('refuses a negative limit', async () => {
    const { lister } = pagedLister(threePages)
    await expect(new AsyncCollection(lister).collect({ limit: -1 })).rejects.toThrow(/limit: expected a number >= 0, received -1/)
  })
})
