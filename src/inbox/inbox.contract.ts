import { describe, expect, it } from 'vitest'
import type { Inbox } from './inbox.js'

/**
 * The behaviour every `Inbox` adapter must have, run against each (memory here, the table adapter through a real
 * server in test/tables/table-inbox.test.ts). `makeInbox` answers a fresh, empty inbox.
 *
 * @example
 * ```ts
 * describeInboxContract('memory', async () => createMemoryInbox())
 * ```
 */
export function describeInboxContract(name: string, makeInbox: () => Promise<Inbox>): void {
  const entry = (id: string, key = 'bot/conv_1', receivedAt = 1_000) => ({ id, key, body: JSON.stringify({ id, text: 'héllo' }), receivedAt })

  describe(`Inbox contract: ${name}`, () => {
    it('adds an entry once, pending with no attempt, and keeps the body as given', async () => {
      const inbox = await makeInbox()
      const first = await inbox.add(entry('msg_1'))
      expect(first.added).toBe(true)
      expect(first.entry).toMatchObject({ id: 'msg_1', key: 'bot/conv_1', status: 'pending', attempts: 0, nextAttemptAt: 1_000, receivedAt: 1_000 })
      expect(first.entry.body).toBe(JSON.stringify({ id: 'msg_1', text: 'héllo' }))
      const again = await inbox.add({ ...entry('msg_1'), body: '{"other":true}' })
      expect(again.added).toBe(false)
      expect(again.entry.body).toBe(first.entry.body)
      expect(await inbox.get('msg_1')).toEqual(first.entry)
      expect(await inbox.get('msg_none')).toBeUndefined()
    })

    it('lists by status in arrival order, with increasing seq', async () => {
      const inbox = await makeInbox()
      for (const id of ['msg_a', 'msg_b', 'msg_c']) await inbox.add(entry(id))
      await inbox.update('msg_b', { status: 'dead', attempts: 3, finishedAt: 5_000, lastError: 'boom' })
      const pending = await inbox.list('pending')
      expect(pending.map((e) => e.id)).toEqual(['msg_a', 'msg_c'])
      expect(pending[0]!.seq).toBeLessThan(pending[1]!.seq)
      expect(await inbox.list('dead')).toMatchObject([{ id: 'msg_b', status: 'dead', attempts: 3, finishedAt: 5_000, lastError: 'boom' }])
      expect(await inbox.list('done')).toEqual([])
    })

    it('updates the given fields only, and refuses an unknown id', async () => {
      const inbox = await makeInbox()
      await inbox.add(entry('msg_u'))
      const updated = await inbox.update('msg_u', { attempts: 1, nextAttemptAt: 9_000, lastError: 'later' })
      expect(updated).toMatchObject({ id: 'msg_u', status: 'pending', attempts: 1, nextAttemptAt: 9_000, lastError: 'later' })
      expect(await inbox.get('msg_u')).toEqual(updated)
      await expect(inbox.update('msg_nope', { attempts: 1 })).rejects.toMatchObject({ code: 'INBOX_ENTRY_NOT_FOUND' })
    })

    it('prunes done entries finished before a time, and nothing else', async () => {
      const inbox = await makeInbox()
      for (const id of ['msg_old', 'msg_new', 'msg_pending', 'msg_dead']) await inbox.add(entry(id))
      await inbox.update('msg_old', { status: 'done', finishedAt: 1_000 })
      await inbox.update('msg_new', { status: 'done', finishedAt: 9_000 })
      await inbox.update('msg_dead', { status: 'dead', finishedAt: 1_000 })
      expect(await inbox.prune(5_000)).toBe(1)
      expect(await inbox.get('msg_old')).toBeUndefined()
      expect((await inbox.get('msg_new'))?.status).toBe('done')
      expect((await inbox.get('msg_pending'))?.status).toBe('pending')
      expect((await inbox.get('msg_dead'))?.status).toBe('dead')
    })
  })
}
