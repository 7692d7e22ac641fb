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

  register(ops.createTable, async ({ input, principal }, store) => ({ table: await store.createTable(principal.botId, input.body) }))

  register(ops.getTable, async ({ input, principal }, store) => withRowVectorCounts(search, store, principal.botId, await store.getTable(principal.botId, input.params.table)))

  register(ops.getOrCreateTable, async ({ input, principal }, store) =>
    withRowVectorCounts(search, store, principal.botId, await store.getOrCreateTable(principal.botId, input.params.table, input.body)),
  )

  register(ops.updateTable, async ({ input, principal, services }, store) => {
    const result = await store.updateTable(principal.botId, input.params.table, input.body)
    // A schema change can make every row stale (another searchable text).
    if (input.body.schema) await embedAfterWrite(services, search, store, principal.botId, result.table.id)
    return result
  })

  register(ops.deleteTable, async ({ input, principal }, store) => {
    await store.deleteTable(principal.botId, input.params.table)
    return {}
  })

  register(ops.duplicateTable, async ({ input, principal, services }, store) => {
    const result = await store.duplicateTable(principal.botId, input.params.sourceTableId, input.body)
    if (result.rows > 0) await embedAfterWrite(services, search, store, principal.botId, result.table.id)
    return result
  })

  register(ops.renameTableColumn, async ({ input, principal }, store) => ({
    table: await store.renameColumn(principal.botId, input.params.table, input.body.name, input.body.newName),
  }))

  register(ops.getTableRow, async ({ input, principal }, store) => ({ row: await store.getRow(principal.botId, input.params.table, input.query.id) }))

  register(ops.findTableRows, async ({ input, principal, services }, store) => {
    const query = input.body
    const text = query.search?.trim()
    const vector = text && !query.group ? await embedQuery(search.embedder, text, services.logger) : undefined
    return store.findRows(principal.botId, input.params.table, vector ? { ...query, vector } : query)
  })


  register(ops.createTableRows, async ({ input, principal, services }, store) => {
    const result = withWarnings(await store.createRows(principal.botId, input.params.table, input.body.rows))
    await embedAfterWrite(services, search, store, principal.botId, input.params.table)
    return result
  })

  register(ops.updateTableRows, async ({ input, principal, services }, store) => {
    const result = withWarnings(await store.updateRows(principal.botId, input.params.table, input.body.rows as Array<Record<string, unknown> & { id: number }>))
    await embedAfterWrite(services, search, store, principal.botId, input.params.table)
    return result
  })

  register(ops.upsertTableRows, async ({ input, principal, services }, store) => {
    const result = withWarnings(await store.upsertRows(principal.botId, input.params.table, input.body.rows, input.body.keyColumn))
    await embedAfterWrite(services, search, store, principal.botId, input.params.table)
    return result
  })

  register(ops.deleteTableRows, ({ input, principal }, store) => store.deleteRows(principal.botId, input.params.table, input.body))

  register(ops.getTableJobs, async ({ input, principal }, store) => ({ jobs: await store.listJobs(principal.botId, input.params.table) }))

  register(ops.importTable, (context, store) => importTableHandler(context, store))

  register(ops.exportTable, (context, store) => exportTableHandler(context, store))

  return router
}
