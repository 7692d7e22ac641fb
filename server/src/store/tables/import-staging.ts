import { TablesStoreError } from './errors.js'

/**
 * The engine-neutral rules of an import's staging area (decision 1473): the rows of a file are checked and written
 * to a staging table of their own, invisible to every read, then published into the table step by step, each step
 * committed with the job's resume point.
 */

/**
 * The physical name of the staging table of the import job `tableJobId`.
 *
 * @example
 * ```ts
 * stagingTableName('tjob_01abc') // 'import_tjob_01abc'
 * ```
 */
export const stagingTableName = (tableJobId: string): string => `import_${tableJobId.replace(/[^A-Za-z0-9_]/g, '_')}`

/**
 * The error of a staging or publishing step that does not follow the last one committed (a step run twice, or out
 * of order): nothing of the step is written.
 *
 * @example
 * ```ts
 * if (staged !== firstRowIndex) throw importOutOfStep('staged', staged, firstRowIndex)
 * ```
 */
export function importOutOfStep(what: 'staged' | 'published', done: number, asked: number): TablesStoreError {
  return new TablesStoreError(
    'InvalidPayload',
    'INVALID_REQUEST',
    `the import has ${done} rows ${what}, so its next step starts at row ${done}, not ${asked}; nothing of this step was written`,
  )
}

/**
 * The error of a publishing step after the table's columns changed since its rows were staged.
 *
 * @example
 * ```ts
 * throw tableChangedDuringImport('ordersTable')
 * ```
 */
export function tableChangedDuringImport(tableName: string): TablesStoreError {
  return new TablesStoreError(
    'BreakingChanges',
    'BREAKING_CHANGE',
    `the columns of table ${JSON.stringify(tableName)} changed while the import ran; no row of this step was written`,
  )
}

/** What one publishing step made visible. */
export interface PublishedRows {
  /** Rows made visible by this step. */
  published: number
  /** Their ids, in file order (the rows a step wrote, for work queued with them). */
  ids: number[]
}
