import type { Inbox, InboxEntry } from './inbox.js'
import { InboxError } from './errors.js'

/**
 * An inbox in memory: for tests and development. It does not survive the process; use `createTableInbox` (or
 * your own `Inbox`) where accepted events must outlive a crash.
 *
 * @example
 * ```ts
 * const worker = createInboxWorker({ runtime, inbox: createMemoryInbox() })
 * ```
 */
export function createMemoryInbox(): Inbox {
  const entries = new Map<string, InboxEntry>()
  let seq = 0
  return {
    async add(entry) {
      const known = entries.get(entry.id)
      if (known) return { added: false, entry: known }
      const created: InboxEntry = { ...entry, seq: ++seq, status: 'pending', attempts: 0, nextAttemptAt: entry.receivedAt }
      entries.set(entry.id, created)
      return { added: true, entry: created }
    },
    async get(id) {
      return entries.get(id)
    },
    async list(status) {
      return [...entries.values()].filter((e) => e.status === status).sort((a, b) => a.seq - b.seq)
    },
    async update(id, patch) {
      const known = entries.get(id)
      if (!known) throw new InboxError('INBOX_ENTRY_NOT_FOUND', `Inbox entry "${id}" not found`)
      const updated = { ...known, ...patch }
      entries.set(id, updated)
      return updated
    },
    async prune(finishedBefore) {
      let removed = 0
      for (const [id, entry] of entries) {
        if (entry.status === 'done' && (entry.finishedAt ?? 0) < finishedBefore) {
          entries.delete(id)
          removed++
        }
      }
      return removed
    },
  }
}
