import type * as ops from '../../api/tables/operations.js'
import type { OperationContext } from '../http/register-operation.js'
import { ServiceError } from '../service-error.js'
import type { SqliteTablesStore } from '../../store/sqlite/tables-store.js'

/**
 * `importTable`: not built yet. Answers 405 `MethodNotFound` saying so (docs/tables-api.md).
 *
 * @example
 * ```ts
 * register(ops.importTable, importTableHandler)
 * ```
 */
export function importTableHandler(context: OperationContext<typeof ops.importTable>, store: SqliteTablesStore): never {
  store.loadTable(context.principal.botId, context.input.params.table)
  throw new ServiceError('MethodNotFound', 'importTable is not built yet in botshelf; insert rows with createTableRows')
}

/**
 * `exportTable`: not built yet. Answers 405 `MethodNotFound` saying so (docs/tables-api.md).
 *
 * @example
 * ```ts
 * register(ops.exportTable, exportTableHandler)
 * ```
 */
export function exportTableHandler(context: OperationContext<typeof ops.exportTable>, store: SqliteTablesStore): never {
  store.loadTable(context.principal.botId, context.input.params.table)
  throw new ServiceError('MethodNotFound', 'exportTable is not built yet in botshelf; read rows with findTableRows')
}
