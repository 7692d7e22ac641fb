import type { Client } from '../client/index.js'
import type { Inbox, InboxEntry, InboxEntryPatch, InboxStatus } from './inbox.js'
import { InboxError } from './errors.js'

/** Options of `createTableInbox`. */
export interface TableInboxOptions {
  /**
   * The storage client (botshelf or the Botpress cloud): it must be allowed to create, read and write the table.
   * @example `client: new Client({ token: process.env.BP_TOKEN, botId: process.env.BP_BOT_ID })`
   */
  client: Pick<Client, 'getOrCreateTable' | 'findTableRows' | 'createTableRows' | 'updateTableRows' | 'deleteTableRows'>
  /**
   * The table's name (created on first use; names end in `Table`). Default `webhookInboxTable`.
   * @example `table: 'supportBotInboxTable'`
   */
  table?: string
  /**
   * The table's row factor, 1 to 30: a row holds 4 KB × factor, so the largest event accepted is a little less.
   * Default 8 (32 KB). Applies when the table is created.
   * @example `factor: 30`
   */
  factor?: number
}

/** Room kept in a row for the columns besides the event body. */
const ROW_OVERHEAD_BYTES = 1024
const columns = ['webhookId', 'conversationKey', 'body', 'status', 'attempts', 'nextAttemptAt', 'receivedAt', 'finishedAt', 'lastError'] as const
const columnTypes: Record<(typeof columns)[number], 'string' | 'number'> = {
  webhookId: 'string',
  conversationKey: 'string',
  body: 'string',
  status: 'string',
  attempts: 'number',
  nextAttemptAt: 'number',
  receivedAt: 'number',
  finishedAt: 'number',
  lastError: 'string',
}

/** The table's schema in the JSON Schema form both botshelf and the Botpress cloud accept. */
function tableSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {}
  columns.forEach((name, index) => {
    properties[name] = { type: columnTypes[name], 'x-zui': { index } }
  })
  return { type: 'object', additionalProperties: true, properties }
}

type Row = Record<string, unknown> & { id: number }

function toEntry(row: Row): InboxEntry {
  const entry: InboxEntry = {
    id: String(row['webhookId']),
    seq: row.id,
    key: String(row['conversationKey']),
    body: String(row['body']),
    status: row['status'] as InboxStatus,
    attempts: Number(row['attempts'] ?? 0),
    nextAttemptAt: Number(row['nextAttemptAt'] ?? 0),
    receivedAt: Number(row['receivedAt'] ?? 0),
  }
  const finishedAt = row['finishedAt']
  const lastError = row['lastError']
  return {
    ...entry,
    ...(typeof finishedAt === 'number' ? { finishedAt } : {}),
    ...(typeof lastError === 'string' && lastError !== '' ? { lastError } : {}),
  }
}

function checkOptions(options: TableInboxOptions): { table: string; factor: number } {
  const table = options.table ?? 'webhookInboxTable'
  const factor = options.factor ?? 8
  if (!options.client || typeof options.client.findTableRows !== 'function') {
    throw new InboxError('INVALID_INBOX_OPTIONS', `client: expected a storage client (new Client({ token, botId })), received ${typeof options.client}`)
  }
  if (!/^[A-Za-z][A-Za-z0-9_]{0,25}Table$/.test(table)) {
    throw new InboxError('INVALID_INBOX_OPTIONS', `table: expected a table name ending in "Table" (letters, digits, _), received ${JSON.stringify(table)}`)
  }
  if (!Number.isInteger(factor) || factor < 1 || factor > 30) {
    throw new InboxError('INVALID_INBOX_OPTIONS', `factor: expected an integer from 1 to 30, received ${String(factor)}`)
  }
  return { table, factor }
}

/**
 * An inbox kept in a table through the storage client, so accepted events survive a crash of the receiver. It uses
 * only operations botshelf and the Botpress cloud tables API share (get-or-create a table, find, create, update and
 * delete rows), one row per event; `seq` is the row id. One worker uses a table at a time (decision 1402).
 * An event larger than a row holds is refused with `InboxError` `INBOX_ENTRY_TOO_LARGE` (the receiver answers 413).
 *
 * @example
 * ```ts
 * const inbox = createTableInbox({ client: new Client({ token: process.env.BP_TOKEN, botId: process.env.BP_BOT_ID }) })
 * const worker = createInboxWorker({ runtime, inbox })
 * ```
 */
export function createTableInbox(options: TableInboxOptions): Inbox {
  const { client } = options
  const { table, factor } = checkOptions(options)
  const maxBodyBytes = 4096 * factor - ROW_OVERHEAD_BYTES
  const encoder = new TextEncoder()
  // Row ids by webhook id, so updates skip a lookup; filled by every read.
  const rowIds = new Map<string, number>()
  let ready: Promise<unknown> | undefined
  const ensureTable = (): Promise<unknown> => {
    ready ??= client.getOrCreateTable({ table, schema: tableSchema(), factor }).catch((error: unknown) => {
      ready = undefined
      throw error
    })
    return ready
  }

  const remember = (row: Row): InboxEntry => {
    const entry = toEntry(row)
    rowIds.set(entry.id, row.id)
    return entry
  }

  const findById = async (id: string): Promise<InboxEntry | undefined> => {
    await ensureTable()
    const { rows } = await client.findTableRows({ table, filter: { webhookId: { $eq: id } }, limit: 1 })
    const row = rows[0] as Row | undefined
    return row ? remember(row) : undefined
  }

  const writeFailed = (what: string, errors: readonly string[] | undefined): InboxError =>
    new InboxError('INBOX_WRITE_FAILED', `Inbox table "${table}": ${what} was refused (${(errors ?? []).join('; ') || 'no row returned'})`)

  return {
    async add(entry) {
      const bytes = encoder.encode(entry.body).byteLength
      if (bytes > maxBodyBytes) {
        throw new InboxError(
          'INBOX_ENTRY_TOO_LARGE',
          `Event: expected at most ${maxBodyBytes} bytes for the inbox table "${table}" (4 KB × factor ${factor}), received ${bytes}`,
        )
      }
      const known = await findById(entry.id)
      if (known) return { added: false, entry: known }
      const row = {
        webhookId: entry.id,
        conversationKey: entry.key,
        body: entry.body,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: entry.receivedAt,
        receivedAt: entry.receivedAt,
      }
      const created = await client.createTableRows({ table, rows: [row] })
      const first = created.rows[0] as Row | undefined
      if (!first || (created.errors?.length ?? 0) > 0) throw writeFailed(`adding entry "${entry.id}"`, created.errors)
      return { added: true, entry: remember(first) }
    },

    get: findById,

    async list(status) {
      await ensureTable()
      const entries: InboxEntry[] = []
      for (let offset = 0; ; offset += 1000) {
        const page = await client.findTableRows({ table, filter: { status: { $eq: status } }, orderBy: 'id', orderDirection: 'asc', limit: 1000, offset })
        for (const row of page.rows) entries.push(remember(row as Row))
        if (!page.hasMore) return entries
      }
    },

    async update(id, patch: InboxEntryPatch) {
      await ensureTable()
      const rowId = rowIds.get(id) ?? (await findById(id))?.seq
      if (rowId === undefined) throw new InboxError('INBOX_ENTRY_NOT_FOUND', `Inbox entry "${id}" not found in table "${table}"`)
      const changes: Record<string, unknown> = { ...patch }
      if ('lastError' in patch) changes['lastError'] = patch.lastError ?? ''
      const updated = await client.updateTableRows({ table, rows: [{ id: rowId, ...changes }] })
      const row = updated.rows[0] as Row | undefined
      if (!row || (updated.errors?.length ?? 0) > 0) throw writeFailed(`updating entry "${id}"`, updated.errors)
      return remember(row)
    },

    async prune(finishedBefore) {
      await ensureTable()
      const { rows } = await client.findTableRows({
        table,
        filter: { status: { $eq: 'done' }, finishedAt: { $lt: finishedBefore } },
        select: ['webhookId'],
        limit: 1000,
      })
      if (rows.length === 0) return 0
      const ids = rows.map((row) => (row as Row).id)
      const { deletedRows } = await client.deleteTableRows({ table, ids })
      for (const row of rows) rowIds.delete(String((row as Row)['webhookId']))
      return deletedRows
    },
  }
}
