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
import { resetColumnsOf, tableColumns } from '../store/tables/index.js'
import type { AppServices } from '../http/env.js'
import { embedQuery } from '../search/embedding/index.js'
import { enqueueRowEmbedding, type TableSearchOptions } from '../search/rows/index.js'
import { workflowAnswers, answerRows, applyComputedSchemaChange, commitRowWrite, loadComputedView, readRowsWithComputedState, computedColumnsOf, copyCells, type ResolvedComputeOptions, resolveComputeOptions } from './computed/index.js'
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

/** A table's counts with the rows waiting for a computation added to `stale` (rows waiting to be embedded are there already). */
async function withComputedCounts<T extends { table: { id: string }; stale: number }>(services: AppServices, result: T): Promise<T> {
  return { ...result, stale: result.stale + (await services.backend.computed.countStaleRows(result.table.id)) }
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
export function tablesRoutes(search: TableSearchOptions = { embedder: null }, compute: ResolvedComputeOptions = resolveComputeOptions()): Hono<AppEnv> {
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

  // Every write below records its storage events in its own transaction (decision 1411); a new table's computed
  // columns are checked in the transaction that creates it: a cycle leaves no table behind.
  register(ops.createTable, async ({ input, principal, services }) => ({
    table: await services.webhooks.transaction(async (tx) => {
      const table = await tx.tables.createTable(principal.botId, input.body)
      await applyComputedSchemaChange(tx, undefined, table)
      return { result: table, events: [tableEvent('table.created', principal.botId, table)] }
    }),
  }))

  register(ops.getTable, async ({ input, principal, services }, store) =>
    withComputedCounts(services, await withRowVectorCounts(search, store, principal.botId, await store.getTable(principal.botId, input.params.table))),
  )

  register(ops.getOrCreateTable, async ({ input, principal, services }) => {
    const result = await services.webhooks.transaction(async (tx) => {
      const got = await tx.tables.getOrCreateTable(principal.botId, input.params.table, input.body)
      if (got.created) await applyComputedSchemaChange(tx, undefined, got.table)
      return { result: got, events: got.created ? [tableEvent('table.created', principal.botId, got.table)] : [] }
    })
    return withComputedCounts(services, await withRowVectorCounts(search, services.backend.tables, principal.botId, result))
  })

  register(ops.updateTable, async ({ input, principal, services }, store) => {
    const before = await store.loadTable(principal.botId, input.params.table)
    const { result, staleColumns } = await services.webhooks.transaction(async (tx) => {
      const updated = await tx.tables.updateTable(principal.botId, input.params.table, input.body)
      return { result: { result: updated, staleColumns: await applyComputedSchemaChange(tx, before, updated.table) }, events: [tableEvent('table.updated', principal.botId, updated.table)] }
    })
    services.jobs.wake()
    // A schema change can make every row stale (another searchable text).
    if (input.body.schema) await embedAfterWrite(services, search, store, principal.botId, result.table.id)
    const computes = computedColumnsOf(result.table.schema).length > 0 || computedColumnsOf(before.schema).length > 0
    // A type change resets the column's values, as Botpress does: the answer says which (decision 1426).
    const resetColumns = input.body.schema ? resetColumnsOf(before.schema, result.table.schema) : []
    const resets = resetColumns.length > 0 ? { resetColumns, warnings: resetColumns.map((name) => `column "${name}" changed type: its values were reset to null`) } : {}
    return { ...result, ...(computes ? { staleColumns } : {}), ...resets }
  })

  register(ops.deleteTable, async ({ input, principal, services }) => {
    await services.webhooks.transaction(async (tx) => {
      const { table } = await tx.tables.getTable(principal.botId, input.params.table)
      await tx.tables.deleteTable(principal.botId, table.id)
      await tx.computed.deleteCells(table.id)
      return { result: undefined, events: [tableEvent('table.deleted', principal.botId, table)] }
    })
    return {}
  })

  register(ops.duplicateTable, async ({ input, principal, services }, store) => {
    let computes = false
    const result = await services.webhooks.transaction(async (tx) => {
      const source = await tx.tables.loadTable(principal.botId, input.params.sourceTableId)
      const result = await tx.tables.duplicateTable(principal.botId, source.id, input.body)
      // Computed cells are copied as they are: same inputs, same results (decision 1425).
      if (result.rows > 0) computes = await copyCells(tx, source, await tx.tables.loadTable(principal.botId, result.table.id))
      return { result, events: [tableEvent('table.created', principal.botId, result.table)] }
    })
    if (computes) services.jobs.wake()
    if (result.rows > 0) await embedAfterWrite(services, search, store, principal.botId, result.table.id)
    return result
  })

  register(ops.renameTableColumn, async ({ input, principal, services }) => ({
    table: await services.webhooks.transaction(async (tx) => {
      const table = await tx.tables.renameColumn(principal.botId, input.params.table, input.body.name, input.body.newName)
      return { result: table, events: [tableEvent('table.updated', principal.botId, table)] }
    }),
  }))

  register(ops.getTableRow, async ({ input, principal, services }, store) => {
    const view = await loadComputedView(store, principal.botId, input.params.table)
    if (view.columns.length === 0) return { row: await store.getRow(principal.botId, input.params.table, input.query.id) }
    const { rows } = await readRowsWithComputedState(services.backend, view.table.id, async (tables) => ({ rows: [await tables.getRow(principal.botId, view.table.id, input.query.id)] }))
    return { row: rows[0]! }
  })

  register(ops.findTableRows, async ({ input, principal, services }, store) => {
    const query = input.body
    const text = query.search?.trim()
    const vector = text && !query.group ? await embedQuery(search.embedder, text, services.logger) : undefined
    const request = vector ? { ...query, vector } : query
    if (query.group) return store.findRows(principal.botId, input.params.table, request)
    const view = await loadComputedView(store, principal.botId, input.params.table)
    if (view.columns.length === 0) return store.findRows(principal.botId, input.params.table, request)
    return readRowsWithComputedState(services.backend, view.table.id, (tables) => tables.findRows(principal.botId, view.table.id, request))
  })

  register(ops.createTableRows, async ({ input, principal, services }, store) => {
    const view = await loadComputedView(store, principal.botId, input.params.table)
    const written = await commitRowWrite(
      services,
      view,
      (tx) => tx.tables.createRows(principal.botId, view.table.id, input.body.rows),
      (r) => r.rows.map((row) => ({ id: row.id, created: true as const })),
      (r) => rowsEvents('table.rows.created', principal.botId, view.table.name, r.rows),
    )
    const result = withWarnings({ ...written, rows: await answerRows(services, view, written.rows, input.body.waitComputed === true, compute.waitComputedMs) })
    await embedAfterWrite(services, search, store, principal.botId, input.params.table)
    return result
  })

  register(ops.updateTableRows, async ({ input, principal, services }, store) => {
    const view = await loadComputedView(store, principal.botId, input.params.table)
    const rows = input.body.rows as Array<Record<string, unknown> & { id: number }>
    const written = await commitRowWrite(
      services,
      view,
      (tx) => tx.tables.updateRows(principal.botId, view.table.id, rows),
      () => rows.map((row) => ({ id: row.id, created: false as const, columns: Object.keys(row).filter((name) => name !== 'id') })),
      (r) => rowsEvents('table.rows.updated', principal.botId, view.table.name, r.rows),
      workflowAnswers(view.columns, rows),
    )
    const result = withWarnings({ ...written, rows: await answerRows(services, view, written.rows, input.body.waitComputed === true, compute.waitComputedMs) })
    await embedAfterWrite(services, search, store, principal.botId, input.params.table)
    return result
  })

  register(ops.upsertTableRows, async ({ input, principal, services }, store) => {
    const view = await loadComputedView(store, principal.botId, input.params.table)
    const given = new Map<number, string[]>()
    const written = await commitRowWrite(
      services,
      view,
      (tx) => tx.tables.upsertRows(principal.botId, view.table.id, input.body.rows, input.body.keyColumn),
      (r) => {
        // An updated row recomputes what reads the columns its input row set (the input row with its key value).
        const key = input.body.keyColumn ?? 'id'
        const columnsOf = (row: Record<string, unknown>) => Object.keys(row).filter((name) => name !== 'id')
        for (const row of r.updated) {
          const source = input.body.rows.find((candidate) => candidate[key] === row[key])
          if (source) given.set(row.id, columnsOf(source))
        }
        return [
          ...r.inserted.map((row) => ({ id: row.id, created: true as const })),
          ...r.updated.map((row) => ({ id: row.id, created: false as const, columns: given.get(row.id) ?? view.columns.flatMap((column) => column.dependencies) })),
        ]
      },
      (r) => [...rowsEvents('table.rows.created', principal.botId, view.table.name, r.inserted), ...rowsEvents('table.rows.updated', principal.botId, view.table.name, r.updated)],
    )
    const wait = input.body.waitComputed === true
    const result = withWarnings({
      ...written,
      inserted: await answerRows(services, view, written.inserted, wait, compute.waitComputedMs),
      updated: await answerRows(services, view, written.updated, wait, compute.waitComputedMs),
    })
    await embedAfterWrite(services, search, store, principal.botId, input.params.table)
    return result
  })

  register(ops.deleteTableRows, ({ input, principal, services }) =>
    services.webhooks.transaction(async (tx) => {
      const table = await tx.tables.loadTable(principal.botId, input.params.table)
      // Ids are read first only when someone listens: a bot without subscriptions pays nothing more.
      const listening = (await tx.webhooks.subscribers(principal.botId, 'table.rows.deleted')).length > 0
      const ids = listening ? await idsToDelete(tx.tables, principal.botId, table.id, input.body) : []
      const result = await tx.tables.deleteRows(principal.botId, table.id, input.body)
      // Cells of rows deleted by a filter are dropped by the computation that finds their row gone.
      if (input.body.ids) await tx.computed.deleteCells(table.id, { rowIds: input.body.ids })
      else if (input.body.deleteAllRows) await tx.computed.deleteCells(table.id)
      return { result, events: rowsEvents('table.rows.deleted', principal.botId, table.name, ids.map((id) => ({ id }))) }
    }),
  )

  register(ops.getTableJobs, async ({ input, principal }, store) => ({ jobs: await store.listJobs(principal.botId, input.params.table) }))

  register(ops.importTable, (context, store) => importTableHandler(context, store))

  register(ops.exportTable, (context, store) => exportTableHandler(context, store))

  return router
}
