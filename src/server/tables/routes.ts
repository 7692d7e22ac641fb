import { Hono } from 'hono'
import type { Operation } from '../../api/operation.js'
import * as ops from '../../api/tables/operations.js'
import type { AppEnv } from '../env.js'
import { registerOperation, type OperationContext, type OperationHandler } from '../http/register-operation.js'
import type { Principal } from '../principal.js'
import { ServiceError } from '../service-error.js'
import type { TablesPort } from '../../store/index.js'
import { tablesLimits } from '../../api/tables/index.js'
import { decodeCursor, encodeCursor, isPagePosition, queryFingerprint } from '../http/cursor.js'
import { canAccessTables, tablesOperationAccess, type TablesAccess } from './permissions.js'
import { exportTableHandler, importTableHandler } from './import-export-handlers.js'

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

/**
 * The authenticated routes of the Tables API: one per operation of `tablesOperations`, each checking the
 * caller's access (decision 0406), validating its input with the operation's schemas and calling the tables port.
 *
 * @example
 * ```ts
 * hono.route('/', tablesRoutes())
 * ```
 */
export function tablesRoutes(): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  const register = <Op extends Operation>(operation: Op, handler: TablesHandler<Op>): void => {
    const access: TablesAccess = tablesOperationAccess[operation.name as keyof typeof tablesOperationAccess]
    registerOperation(router, operation, async (context) => {
      if (!canAccessTables(context.principal, access)) throw forbidden(context.principal, access)
      return handler(context, context.services.backend.tables)
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

  register(ops.getTable, ({ input, principal }, store) => store.getTable(principal.botId, input.params.table))

  register(ops.getOrCreateTable, ({ input, principal }, store) => store.getOrCreateTable(principal.botId, input.params.table, input.body))

  register(ops.updateTable, ({ input, principal }, store) => store.updateTable(principal.botId, input.params.table, input.body))

  register(ops.deleteTable, async ({ input, principal }, store) => {
    await store.deleteTable(principal.botId, input.params.table)
    return {}
  })

  register(ops.duplicateTable, ({ input, principal }, store) => store.duplicateTable(principal.botId, input.params.sourceTableId, input.body))

  register(ops.renameTableColumn, async ({ input, principal }, store) => ({
    table: await store.renameColumn(principal.botId, input.params.table, input.body.name, input.body.newName),
  }))

  register(ops.getTableRow, async ({ input, principal }, store) => ({ row: await store.getRow(principal.botId, input.params.table, input.query.id) }))

  register(ops.findTableRows, ({ input, principal }, store) => store.findRows(principal.botId, input.params.table, input.body))


  register(ops.createTableRows, async ({ input, principal }, store) => withWarnings(await store.createRows(principal.botId, input.params.table, input.body.rows)))

  register(ops.updateTableRows, async ({ input, principal }, store) =>
    withWarnings(await store.updateRows(principal.botId, input.params.table, input.body.rows as Array<Record<string, unknown> & { id: number }>)),
  )

  register(ops.upsertTableRows, async ({ input, principal }, store) =>
    withWarnings(await store.upsertRows(principal.botId, input.params.table, input.body.rows, input.body.keyColumn)),
  )

  register(ops.deleteTableRows, ({ input, principal }, store) => store.deleteRows(principal.botId, input.params.table, input.body))

  register(ops.getTableJobs, async ({ input, principal }, store) => ({ jobs: await store.listJobs(principal.botId, input.params.table) }))

  register(ops.importTable, (context, store) => importTableHandler(context, store))

  register(ops.exportTable, (context, store) => exportTableHandler(context, store))

  return router
}
