import { Hono } from 'hono'
import type { Operation } from '../../api/operation.js'
import * as ops from '../../api/tables/operations.js'
import type { AppEnv } from '../env.js'
import { registerOperation, type OperationContext, type OperationHandler } from '../http/register-operation.js'
import type { Principal } from '../principal.js'
import { ServiceError } from '../service-error.js'
import type { SqliteTablesStore } from '../../store/sqlite/tables-store.js'
import { fromTablesError } from './errors.js'
import { canAccessTables, tablesOperationAccess, type TablesAccess } from './permissions.js'
import { tablesStoreOf } from './store-of.js'
import { exportTableHandler, importTableHandler } from './transfer.js'

type TablesHandler<Op extends Operation> = (context: OperationContext<Op>, store: SqliteTablesStore) => ReturnType<OperationHandler<Op>>

function callerName(principal: Principal): string {
  return principal.kind === 'member' ? `a ${principal.role}` : principal.kind === 'integration' ? `integration "${principal.integrationName}"` : 'a bot'
}

function forbidden(principal: Principal, access: TablesAccess): ServiceError {
  const what = access === 'read' ? 'read tables' : 'change tables'
  return new ServiceError('Forbidden', `This token (${callerName(principal)}) may not ${what} of bot "${principal.botId}"`)
}

/**
 * The authenticated routes of the Tables API: one per operation of `tablesOperations`, each checking the
 * caller's access (decision 0406), validating its input with the operation's schemas and calling the store.
 *
 * @example
 * ```ts
 * hono.route('/', tablesRoutes)
 * ```
 */
export const tablesRoutes = new Hono<AppEnv>()

function register<Op extends Operation>(operation: Op, handler: TablesHandler<Op>): void {
  const access: TablesAccess = tablesOperationAccess[operation.name as keyof typeof tablesOperationAccess]
  registerOperation(tablesRoutes, operation, async (context) => {
    if (!canAccessTables(context.principal, access)) throw forbidden(context.principal, access)
    try {
      return await handler(context, tablesStoreOf(context.services))
    } catch (error) {
      throw fromTablesError(error)
    }
  })
}

register(ops.listTables, ({ input, principal }, store) => {
  const { tables, nextToken } = store.listTables(principal.botId, input.query)
  return { tables, meta: nextToken ? { nextToken } : {} }
})

register(ops.createTable, ({ input, principal }, store) => ({ table: store.createTable(principal.botId, input.body) }))

register(ops.getTable, ({ input, principal }, store) => store.getTable(principal.botId, input.params.table))

register(ops.getOrCreateTable, ({ input, principal }, store) => store.getOrCreateTable(principal.botId, input.params.table, input.body))

register(ops.updateTable, ({ input, principal }, store) => store.updateTable(principal.botId, input.params.table, input.body))

register(ops.deleteTable, ({ input, principal }, store) => {
  store.deleteTable(principal.botId, input.params.table)
  return {}
})

register(ops.duplicateTable, ({ input, principal }, store) => store.duplicateTable(principal.botId, input.params.sourceTableId, input.body))

register(ops.renameTableColumn, ({ input, principal }, store) => ({
  table: store.renameColumn(principal.botId, input.params.table, input.body.name, input.body.newName),
}))

register(ops.getTableRow, ({ input, principal }, store) => ({ row: store.getRow(principal.botId, input.params.table, input.query.id) }))

register(ops.findTableRows, ({ input, principal }, store) => store.findRows(principal.botId, input.params.table, input.body))

function withWarnings<T extends object>(result: T & { warnings: string[] }): T & { warnings?: string[] } {
  const { warnings, ...rest } = result
  return (warnings.length > 0 ? { ...rest, warnings } : rest) as T & { warnings?: string[] }
}

register(ops.createTableRows, ({ input, principal }, store) => withWarnings(store.createRows(principal.botId, input.params.table, input.body.rows)))

register(ops.updateTableRows, ({ input, principal }, store) =>
  withWarnings(store.updateRows(principal.botId, input.params.table, input.body.rows as Array<Record<string, unknown> & { id: number }>)),
)

register(ops.upsertTableRows, ({ input, principal }, store) =>
  withWarnings(store.upsertRows(principal.botId, input.params.table, input.body.rows, input.body.keyColumn)),
)

register(ops.deleteTableRows, ({ input, principal }, store) => store.deleteRows(principal.botId, input.params.table, input.body))

register(ops.getTableJobs, ({ input, principal }, store) => ({ jobs: store.listJobs(principal.botId, input.params.table) }))

register(ops.importTable, (context, store) => importTableHandler(context, store))

register(ops.exportTable, (context, store) => exportTableHandler(context, store))
