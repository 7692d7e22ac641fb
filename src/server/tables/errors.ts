import { ServiceError } from '../service-error.js'
import { TablesStoreError } from '../../store/tables/index.js'

/**
 * Turns a tables store error into the service error the app answers with (same wire type, message and
 * metadata, plus the store's stable `code` in `metadata.code`). Anything else passes through.
 *
 * @example
 * ```ts
 * try { store.getRow(botId, 'ordersTable', 9) } catch (error) { throw fromTablesError(error) }
 * ```
 */
export function fromTablesError(error: unknown): unknown {
  if (error instanceof TablesStoreError) return new ServiceError(error.type, error.message, { code: error.code, ...error.metadata })
  return error
}
