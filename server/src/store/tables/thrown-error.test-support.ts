import { TablesStoreError } from './errors.js'

/**
 * Runs `fn` and returns the `TablesStoreError` it throws, so a test can assert its type, code and message
 * together (any other error is rethrown; no error fails the test). Test support: left out of the build.
 *
 * @example
 * ```ts
 * expect(thrownTablesError(() => store.loadTable('bot_1', 'nopeTable')).code).toBe('TABLE_NOT_FOUND')
 * ```
 */
export function thrownTablesError(fn: () => unknown): TablesStoreError {
  try {
    fn()
  } catch (error) {
    if (error instanceof TablesStoreError) return error
    throw error
  }
  throw new Error('expected a TablesStoreError, but nothing was thrown')
}
