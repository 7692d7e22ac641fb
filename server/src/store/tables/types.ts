import type { GroupOperation, Row, Table, TableJsonSchema } from 'botshelf/api'
import type { QueryVector } from './row-vectors/types.js'

/** A table as the catalog keeps it. */
export interface TableRecord {
  id: string
  botId: string
  name: string
  physical: string
  schema: TableJsonSchema
  physicalMap: Record<string, string>
  nextColumn: number
  factor: number
  frozen: boolean
  keyColumn: string | null
  tags: Record<string, string>
  isComputeEnabled: boolean
  createdAt: string
  updatedAt: string
}

/** Settings of a new table (`createTable` / `getOrCreateTable` body). */
export interface CreateTableInput {
  name: string
  schema: Record<string, unknown>
  factor?: number
  frozen?: boolean
  keyColumn?: string | null
  tags?: Record<string, string>
  isComputeEnabled?: boolean
}

/** Changes of `updateTable`. */
export interface UpdateTableInput {
  name?: string
  schema?: Record<string, unknown>
  factor?: number
  frozen?: boolean
  keyColumn?: string | null
  tags?: Record<string, string>
  isComputeEnabled?: boolean
}

/** A table with its counts (`getTable`). */
export interface TableWithCounts {
  table: Table
  rows: number
  stale: number
  indexing: number
}

/** Result of a row write: the rows, and warnings about ignored columns. */
export interface RowsWriteResult {
  rows: Row[]
  warnings: string[]
}

/** What `findTableRows` accepts, after wire validation. */
export interface FindQuery {
  filter?: Record<string, unknown>
  group?: Record<string, GroupOperation | GroupOperation[]>
  search?: string
  select?: string[]
  orderBy?: string
  orderDirection?: 'asc' | 'desc'
  limit?: number
  offset?: number
  /**
   * The embedding of `search`: rows are then ranked by the fusion of their full-text rank and their vector's
   * nearness (decision 0860). Ignored without `search`, with `group`, or when no row has a vector of its embedder.
   *
   * @example
   * ```ts
   * await tables.findRows(botId, 'faqTable', { search: 'lost my password', vector: { embedderId: embedder.id, values } })
   * ```
   */
  vector?: QueryVector
}


/** A decoded find result. */
export interface FindResult {
  rows: Row[]
  hasMore: boolean
  offset: number
  limit: number
  warnings?: string[]
}
