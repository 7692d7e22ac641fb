/**
 * The tables error now lives with the other backend-neutral tables modules (`src/store/tables/errors.ts`).
 * This re-export keeps `src/server/tables/` compiling until its routes move to the `TablesPort`; delete it then.
 */
export { TablesStoreError, type TablesErrorCode } from '../tables/errors.js'
