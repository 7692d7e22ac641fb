import type { GroupOperation } from 'botshelf/api'
import type { ColumnKind } from '../column-kinds.js'
import type { FilterNode } from '../filter/index.js'

/** Which way a sort goes. */
export type SortDirection = 'asc' | 'desc'

/** What a row page is sorted by; ties are always broken by `id` ascending. */
export type RowsOrder =
  | { by: 'similarity'; direction: SortDirection }
  | { by: 'column'; column: string; kind: ColumnKind; direction: SortDirection }

/** What `select` keeps of each row: the user columns to read and the paths to copy (`attributes.price` → `['attributes', 'price']`). */
export interface RowsProjection {
  columns: string[]
  paths: string[][]
}

/** A `findTableRows` without `group`, validated: rows matching `filter` (and `search`), sorted and paged. */
export interface RowsFindPlan {
  type: 'rows'
  filter: FilterNode
  /** Words to search for in the searchable columns; absent when the query does not search. */
  search?: string[]
  order: RowsOrder
  /** Absent: every column. */
  projection?: RowsProjection
  limit: number
  offset: number
  warnings: string[]
}

/** One output of a group query: `<column><Op>` (`statusKey`, `totalSum`). */
export interface GroupOutput {
  key: string
  column: string
  op: GroupOperation
  kind: ColumnKind
}

/** A `findTableRows` with `group`, validated: one row per distinct combination of the `key` outputs. */
export interface GroupFindPlan {
  type: 'group'
  filter: FilterNode
  search?: string[]
  /** Outputs in request order; those with `op: 'key'` are the grouping columns. */
  outputs: GroupOutput[]
  /** Sort keys, as indexes into `outputs`. */
  order: Array<{ output: number; direction: SortDirection }>
  limit: number
  offset: number
  warnings: string[]
}

/** A validated `findTableRows`: what to read, with no SQL in it. */
export type FindPlan = RowsFindPlan | GroupFindPlan
