/**
 * The parts of a dataset that both engines store in tables of the same shape (same table and column names), read
 * and written record by record by `botshelf export` / `botshelf import`. User tables and their rows are not here:
 * their storage differs per engine, so they travel through the tables port (`restoreTable`, `restoreRows`).
 * Order matters: a part only references parts before it.
 *
 * @example
 * ```ts
 * for (const part of datasetParts) console.log(part.name, part.table)
 * ```
 */
export const datasetParts = [
  { name: 'workspaces', table: 'workspaces', key: ['id'], columns: ['id', 'name', 'created_at'] },
  { name: 'bots', table: 'bots', key: ['id'], columns: ['id', 'workspace_id', 'name', 'created_at'] },
  {
    name: 'tokens',
    table: 'tokens',
    key: ['id'],
    columns: ['id', 'hash', 'bot_id', 'workspace_id', 'role', 'integration_name', 'user_id', 'label', 'created_at', 'revoked_at'],
  },
  { name: 'secrets', table: 'service_secrets', key: ['name'], columns: ['name', 'value', 'created_at'], bytes: ['value'] },
  {
    name: 'files',
    table: 'files',
    key: ['id'],
    columns: [
      'id', 'bot_id', 'key', 'owner_scope', 'owner_json', 'content_type', 'tags_json', 'metadata_json', 'access_policies_json',
      'policy_public', 'policy_integrations', 'index_requested', 'status', 'failed_status_reason', 'expires_at', 'created_at',
      'updated_at', 'version', 'declared_size', 'content_version', 'blob_id', 'size', 'sha256', 'blob_content_type',
      'index_generation', 'indexing_stack', 'indexing_configuration_json',
    ],
    booleans: ['policy_public', 'policy_integrations', 'index_requested'],
  },
  { name: 'fileTags', table: 'file_tags', key: ['file_id', 'tag_key'], columns: ['file_id', 'bot_id', 'tag_key', 'tag_value'] },
  { name: 'knowledgeBases', table: 'knowledge_bases', key: ['id'], columns: ['id', 'bot_id', 'name', 'tags_json', 'created_at', 'updated_at'] },
  {
    name: 'knowledgeBaseTags',
    table: 'knowledge_base_tags',
    key: ['knowledge_base_id', 'tag_key'],
    columns: ['knowledge_base_id', 'bot_id', 'tag_key', 'tag_value'],
  },
  {
    name: 'passages',
    table: 'search_passages',
    key: ['id'],
    // `embedding`: the vector as little-endian float32 bytes, whatever the engine keeps.
    columns: ['id', 'file_id', 'bot_id', 'position', 'content', 'subtype', 'page_number', 'breadcrumb_json', 'embedder_id', 'embedding'],
    bytes: ['embedding'],
  },
  {
    name: 'tableJobs',
    table: 'tables_jobs',
    key: ['id'],
    columns: ['id', 'bot_id', 'table_id', 'type', 'status', 'progress', 'input_file_id', 'output_file_id', 'error', 'rows_committed', 'created_at', 'updated_at'],
  },
  {
    name: 'jobs',
    table: 'queue_jobs',
    // Creation order: written back in this order, a target numbers them (its own `seq`) the same way.
    key: ['seq'],
    columns: [
      'seq', 'id', 'kind', 'payload_json', 'state', 'attempts', 'max_attempts', 'dedupe_key', 'run_at', 'lease_owner', 'lease_expires_at',
      'last_error', 'created_at', 'updated_at', 'finished_at',
    ],
    generated: ['seq'],
  },
] as const satisfies ReadonlyArray<DatasetPartSpec>

/**
 * How one part is stored: its table, the columns that order it (a keyset), its columns, and which of them are
 * booleans (integers on SQLite), bytes (base64 in a record) or numbered by the target (left out when writing).
 *
 * @example
 * ```ts
 * const spec: DatasetPartSpec = { name: 'bots', table: 'bots', key: ['id'], columns: ['id', 'workspace_id', 'name', 'created_at'] }
 * ```
 */
export interface DatasetPartSpec {
  name: string
  table: string
  key: readonly string[]
  columns: readonly string[]
  booleans?: readonly string[]
  bytes?: readonly string[]
  generated?: readonly string[]
}

/** The name of a dataset part (`workspaces`, `bots`, ..., `jobs`). */
export type DatasetPartName = (typeof datasetParts)[number]['name']

/**
 * One record of a part: column name → JSON value (booleans as booleans, bytes as base64 text, `null` for none).
 *
 * @example
 * ```ts
 * const bot: DatasetRecord = { id: 'b1', workspace_id: 'w1', name: 'support', created_at: '2026-01-01T00:00:00.000Z' }
 * ```
 */
export type DatasetRecord = Record<string, string | number | boolean | null>

/**
 * The description of a part by name; throws a `RangeError` for an unknown one.
 *
 * @example
 * ```ts
 * datasetPart('files').booleans // ['policy_public', 'policy_integrations', 'index_requested']
 * ```
 */
export function datasetPart(name: string): DatasetPartSpec {
  const spec = datasetParts.find((part) => part.name === name)
  if (!spec) throw new RangeError(`part: expected one of ${datasetParts.map((part) => part.name).join(', ')}, received ${JSON.stringify(name)}`)
  return spec
}

/**
 * The keyset position after a record: its key columns' values.
 *
 * @example
 * ```ts
 * positionAfter(datasetPart('fileTags'), { file_id: 'f1', tag_key: 'lang', ... }) // ['f1', 'lang']
 * ```
 */
export function positionAfter(spec: DatasetPartSpec, record: DatasetRecord): Array<string | number> {
  return spec.key.map((column) => record[column] as string | number)
}
