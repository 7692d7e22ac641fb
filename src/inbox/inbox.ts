/** Where an entry of the inbox stands: waiting (first run or a retry), processed, or given up (dead letter). */
export type InboxStatus = 'pending' | 'done' | 'dead'

/** An accepted event waiting in (or done with) the inbox. */
export interface InboxEntry {
  /** The `webhook-id` it was received with: one entry per id. */
  readonly id: string
  /** Arrival order, increasing: entries of one key are processed in this order. */
  readonly seq: number
  /** The ordering key, `<botId>/<conversationId>`: entries sharing it run one at a time, in `seq` order. */
  readonly key: string
  /** The verified event, as JSON text. */
  readonly body: string
  readonly status: InboxStatus
  /** Runs started so far. */
  readonly attempts: number
  /** Epoch milliseconds before which a pending entry is not run (its retry's backoff). */
  readonly nextAttemptAt: number
  /** Epoch milliseconds of its acceptance. */
  readonly receivedAt: number
  /** Epoch milliseconds when it became `done` or `dead`. */
  readonly finishedAt?: number
  /** Why the last run failed (for the dead-letter list; never sent to the sender). */
  readonly lastError?: string
}

/** What the receiver writes for an accepted event. */
export interface NewInboxEntry {
  readonly id: string
  readonly key: string
  readonly body: string
  readonly receivedAt: number
}

/** The fields the worker changes. */
export type InboxEntryPatch = Partial<Pick<InboxEntry, 'status' | 'attempts' | 'nextAttemptAt' | 'finishedAt' | 'lastError'>>

/** The answer of `add`: the entry, and whether this call created it (`false`: the id was already there). */
export interface InboxAddResult {
  readonly added: boolean
  readonly entry: InboxEntry
}

/**
 * The durable inbox of the acknowledge-first receiver (decision 1402): an accepted event is written here before
 * `202` is answered, and stays until the worker has processed it or given up on it. Two adapters come with botshelf:
 * `createMemoryInbox` (tests, development) and `createTableInbox` (a table through the storage client: botshelf or
 * the Botpress cloud). An adapter is used by one worker at a time.
 *
 * @example
 * ```ts
 * const inbox: Inbox = createTableInbox({ client: new Client({ token, botId }) })
 * const { added } = await inbox.add({ id: 'msg_1', key: 'bot_1/conv_1', body, receivedAt: Date.now() })
 * ```
 */
export interface Inbox {
  /** Writes a new entry (`pending`, no attempt yet) durably; an id already present is left as it is. */
  add(entry: NewInboxEntry): Promise<InboxAddResult>
  /** The entry with this id, if any. */
  get(id: string): Promise<InboxEntry | undefined>
  /** Every entry with this status, in `seq` order. */
  list(status: InboxStatus): Promise<InboxEntry[]>
  /** Changes an entry; throws `InboxError` (`INBOX_ENTRY_NOT_FOUND`) for an unknown id. */
  update(id: string, patch: InboxEntryPatch): Promise<InboxEntry>
  /** Deletes the `done` entries finished before `finishedBefore` (epoch ms); answers how many went. */
  prune(finishedBefore: number): Promise<number>
}
