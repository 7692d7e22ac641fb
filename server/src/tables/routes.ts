import { Hono } from 'hono'
import type { Operation } from 'botshelf/api'
import * as ops from 'botshelf/api'
import type { AppEnv } from '../http/env.js'
import type { OperationContext, OperationHandler } from '../http/register-operation.js'
import { registerRoute } from '../http/register-route.js'
import type { Principal } from '../http/principal.js'
import { ServiceError } from '../http/service-error.js'
import type { TablesPort } from '../store/index.js'
import { tablesLimits } from 'botshelf/api'
import { decodeCursor, encodeCursor, isPagePosition, queryFingerprint } from '../http/cursor.js'
import { canAccessTables, tablesOperationAccess, type TablesAccess } from './permissions.js'
import { exportTableHandler, importTableHandler } from './import-export-handlers.js'
import { tableColumns } from '../store/tables/index.js'
import type { AppServices } from '../http/env.js'
import { embedQuery } from '../search/embedding/index.js'
import { enqueueRowEmbedding, type TableSearchOptions } from '../search/rows/index.js'
import { rowsEvents, tableEvent } from '../webhooks/event-drafts.js'

/** The ids of the rows a delete will remove, read inside its transaction (for `table.rows.deleted`). */
async function idsToDelete(tx: TablesPort, botId: string, ref: string, input: { ids?: number[]; filter?: Record<string, unknown>; deleteAllRows?: boolean }): Promise<number[]> {
  if (input.ids) return [...new Set(input.ids)]
  const ids: number[] = []
  for (let offset = 0; ; offset += 1000) {
    const page = await tx.findRows(botId, ref, { ...(input.filter ? { filter: input.filter } : {}), limit: 1000, offset })
    ids.push(...page.rows.map((row) => row.id))
    if (page.rows.length < 1000) return ids
  }
}

type TablesHandler<Op extends Operation> = (context: OperationContext<Op>, store: TablesPort) => ReturnType<OperationHandler<Op>>

function callerName(principal: Principal): string {
  return principal.kind === 'member' ? `a ${principal.role}` : principal.kind === 'integration' ? `integration "${principal.integrationName}"` : 'a bot'
}

function forbidden(principal: Principal, access: TablesAccess): ServiceError {
  const what = access === 'read' ? 'read tables' : 'change tables'
  return new ServiceError('Forbidden', `This token (${callerName(principal)}) may not ${what} of bot "${principal.botId}"`)
}

function withWarnings<T extends object>(result: T & { warnings: string[] }): T & { warnings?: string[] } {
  const { warnings, ...rest } = result
  return (warnings.length > 0 ? { ...rest, warnings } : rest) as T & { warnings?: string[] }
}

/** After a write of rows: a table with searchable columns gets its rows embedded (decision 0860). */
async function embedAfterWrite(services: AppServices, search: TableSearchOptions, store: TablesPort, botId: string, ref: string): Promise<void> {
  if (!search.embedder) return
  const record = await store.loadTable(botId, ref)
  if (tableColumns(record.schema, record.physicalMap).searchable.length === 0) return
  await enqueueRowEmbedding(services, { botId, tableId: record.id })
}

/** A table's counts with the real `stale` and `indexing` of the configured embedder (0 without one). */
async function withRowVectorCounts<T extends { table: { id: string }; stale: number; indexing: number }>(search: TableSearchOptions, store: TablesPort, botId: string, result: T): Promise<T> {
  if (!search.embedder) return result
  return { ...result, ...(await store.rowVectorCounts(botId, result.table.id, search.embedder.id)) }
}

/**
 * The authenticated routes of the Tables API: one per operation of `tablesOperations`, each checking the
 * caller's access (decision 0406), validating its input with the operation's schemas and calling the tables port.
 * With an embedder in `search` (read at each request: the feature fills it in at start), row writes queue the
 * embedding of the rows, `getTable` counts `stale`/`indexing`, and `findTableRows` `search` is hybrid (decision 0860).
 *
 * @example
 * ```ts
 * hono.route('/', tablesRoutes({ embedder: null }))
 * ```
 */
export function tablesRoutes(search: TableSearchOptions = { embedder: null }): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const register = <Op extends Operation>(operation: Op, handler: TablesHandler<Op>): void => {
    const access: TablesAccess = tablesOperationAccess[operation.name as keyof typeof tablesOperationAccess]
    registerRoute(router, {
      operation,
      handle: async (context) => {
        if (!canAccessTables(context.principal, access)) throw forbidden(context.principal, access)
        return handler(context, context.services.backend.tables)
      },
    })
  }

  register(ops.listTables, async ({ input, principal, services }, store) => {
    const { nextToken, pageSize, tags } = input.query
    const fingerprint = queryFingerprint('listTables', { tags, pageSize })
    const after = nextToken ? decodeCursor(services.signingKey, fingerprint, nextToken, isPagePosition) : undefined
    const page = await store.listTables(principal.botId, {
      ...(tags ? { tags } : {}),
      pageSize: pageSize ?? tablesLimits.listTablesPageDefault,
      ...(after ? { after } : {}),
    })
    return { tables: page.tables, meta: page.next ? { nextToken: encodeCursor(services.signingKey, fingerprint, page.next) } : {} }
  })

  // Every write below records its storage events in its own transaction (decision 1411).
  register(ops.createTable, async ({ input, principal, services }) => {
    const table = await services.webhooks.transaction(async (tx) => {
      const table = await tx.tables.createTable(principal.botId, input.body)
      return { result: table, events: [tableEvent('table.created', principal.botId, table)] }
    })
    return { table }
  })

  register(ops.getTable, async ({ input, principal }, store) => withRowVectorCounts(search, store, principal.botId, await store.getTable(principal.botId, input.params.table)))

  register(ops.getOrCreateTable, async ({ input, principal, services }, store) => {
    const result = await services.webhooks.transaction(async (tx) => {
      const result = await tx.tables.getOrCreateTable(principal.botId, input.params.table, input.body)
      return { result, events: result.created ? [tableEvent('table.created', principal.botId, result.table)] : [] }
    })
    return withRowVectorCounts(search, store, principal.botId, result)
  })

  register(ops.updateTable, async ({ input, principal, services }, store) => {
    const result = await services.webhooks.transaction(async (tx) => {
      const result = await tx.tables.updateTable(principal.botId, input.params.table, input.body)
      return { result, events: [tableEvent('table.updated', principal.botId, result.table)] }
    })
    // A schema change can make every row stale (another searchable text).
    if (input.body.schema) await embedAfterWrite(services, search, store, principal.botId, result.table.id)
    return result
  })

  register(ops.deleteTable, async ({ input, principal, services }) => {
    await services.webhooks.transaction(async (tx) => {
      const { table } = await tx.tables.getTable(principal.botId, input.params.table)
      await tx.tables.deleteTable(principal.botId, input.params.table)
      return { result: undefined, events: [tableEvent('table.deleted', principal.botId, table)] }
    })
    return {}
  })

  register(ops.duplicateTable, async ({ input, principal, services }, store) => {
    const result = await services.webhooks.transaction(async (tx) => {
      const result = await tx.tables.duplicateTable(principal.botId, input.params.sourceTableId, input.body)
      return { result, events: [tableEvent('table.created', principal.botId, result.table)] }
    })
    if (result.rows > 0) await embedAfterWrite(services, search, store, principal.botId, result.table.id)
    return result
  })

  register(ops.renameTableColumn, async ({ input, principal, services }) => ({
    table: await services.webhooks.transaction(async (tx) => {
      const table = await tx.tables.renameColumn(principal.botId, input.params.table, input.body.name, input.body.newName)
      return { result: table, events: [tableEvent('table.updated', principal.botId, table)] }
    }),
  }))

  register(ops.getTableRow, async ({ input, principal }, store) => ({ row: await store.getRow(principal.botId, input.params.table, input.query.id) }))

  register(ops.findTableRows, async ({ input, principal, services }, store) => {
    const query = input.body
    const text = query.search?.trim()
    const vector = text && !query.group ? await embedQuery(search.embedder, text, services.logger) : undefined
    return store.findRows(principal.botId, input.params.table, vector ? { ...query, vector } : query)
  })


  register(ops.createTableRows, async ({ input, principal, services }, store) => {
    const result = withWarnings(
      await services.webhooks.transaction(async (tx) => {
        const written = await tx.tables.createRows(principal.botId, input.params.table, input.body.rows)
        const { name } = await tx.tables.loadTable(principal.botId, input.params.table)
        return { result: written, events: rowsEvents('table.rows.created', principal.botId, name, written.rows) }
      }),
    )
    await embedAfterWrite(services, search, store, principal.botId, input.params.table)
    return result
  })

  register(ops.updateTableRows, async ({ input, principal, services }, store) => {
    const result = withWarnings(
      await services.webhooks.transaction(async (tx) => {
        const written = await tx.tables.updateRows(principal.botId, input.params.table, input.body.rows as Array<Record<string, unknown> & { id: number }>)
        const { name } = await tx.tables.loadTable(principal.botId, input.params.table)
        return { result: written, events: rowsEvents('table.rows.updated', principal.botId, name, written.rows) }
      }),
    )
    await embedAfterWrite(services, search, store, principal.botId, input.params.table)
    return result
  })

  register(ops.upsertTableRows, async ({ input, principal, services }, store) => {
    const result = withWarnings(
      await services.webhooks.transaction(async (tx) => {
        const written = await tx.tables.upsertRows(principal.botId, input.params.table, input.body.rows, input.body.keyColumn)
        const { name } = await tx.tables.loadTable(principal.botId, input.params.table)
        return {
          result: written,
          events: [...rowsEvents('table.rows.created', principal.botId, name, written.inserted), ...rowsEvents('table.rows.updated', principal.botId, name, written.updated)],
        }
      }),
    )
    await embedAfterWrite(services, search, store, principal.botId, input.params.table)
    return result
  })

  register(ops.deleteTableRows, ({ input, principal, services }) =>
    services.webhooks.transaction(async (tx) => {
      // Ids are read first only when someone listens: a bot without subscriptions pays nothing more.
      const listening = (await tx.webhooks.subscribers(principal.botId, 'table.rows.deleted')).length > 0
      const ids = listening ? await idsToDelete(tx.tables, principal.botId, input.params.table, input.body) : []
      const result = await tx.tables.deleteRows(principal.botId, input.params.table, input.body)
      const { name } = await tx.tables.loadTable(principal.botId, input.params.table)
      return { result, events: rowsEvents('table.rows.deleted', principal.botId, name, ids.map((id) => ({ id }))) }
    }),
  )

  register(ops.getTableJobs, async ({ input, principal }, store) => ({ jobs: await store.listJobs(principal.botId, input.params.table) }))

  register(ops.importTable, (context, store) => importTableHandler(context, store))

  register(ops.exportTable, (context, store) => exportTableHandler(context, store))

  return router
}
