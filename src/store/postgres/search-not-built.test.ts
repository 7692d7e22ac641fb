import { describe, expect, it } from 'vitest'
import { BotshelfError } from '../../errors/index.js'
import { searchNotBuiltOnPostgres } from './search-not-built.js'

describe('searchNotBuiltOnPostgres', () => {
  const search = searchNotBuiltOnPostgres()

  it('refuses searching, listing and storing passages with a 405 SEARCH_NOT_BUILT naming the method, never a 500', async () => {
    const calls: Array<[string, Promise<unknown>]> = [
      ['search', search.search({ botId: 'b', scope: { kind: 'all' }, text: 'refund', limit: 5 } as never)],
      ['listPassages', search.listPassages({ fileId: 'f', pageSize: 10 })],
      ['passagesAround', search.passagesAround('f', 0, 2)],
      ['replacePassages', search.replacePassages({ fileId: 'f', botId: 'b', embedderId: null, passages: [] })],
    ]
    for (const [method, call] of calls) {
      const error = await call.then(() => undefined, (reason: unknown) => reason)
      expect(error).toBeInstanceOf(BotshelfError)
      expect(error).toMatchObject({ code: 'SEARCH_NOT_BUILT', status: 405, type: 'MethodNotFound' })
      expect((error as Error).message).toContain(`search is not built on PostgreSQL yet (search.${method})`)
    }
  })

  it('answers the truth where no passage exists: nothing to delete, nothing used', async () => {
    await expect(search.deleteFilePassages('f')).resolves.toBe(0)
    await expect(search.usage(['b'])).resolves.toEqual({ passages: 0, passageBytes: 0, vectorBytes: 0 })
  })
})
