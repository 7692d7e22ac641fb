import type { PgMigration } from '../pg-types.js'
import { foldedTextSql } from './text-folding.js'
import type { PgSql } from '../pg-types.js'
import { detectVectorSupport } from './detect-vector-support.js'
import type { VectorMode } from './vector-mode.js'

/**
 * Schema of the search index on PostgreSQL: one row per passage (text, kind, place in the document, breadcrumb, and
 * when an embedder made one, its vector beside the embedder's id and the vector's length), deleted with its file
 * (`ON DELETE CASCADE` on `files(id)`). The text is indexed by a generated `tsvector` (the `english` configuration
 * over the folded text: Snowball stemming, stop words dropped, diacritics and punctuation folded) under a GIN index.
 * Vectors are a dimensionless `vector` with pgvector (HNSW indexes are added per dimension when first used, see
 * `ensureHnswIndex`) or little-endian float32 bytes (`bytea`) without it. Run them with the files migrations before them.
 *
 * @example
 * ```ts
 * for (const migration of postgresSearchMigrations({ vectors: 'exact' })) await sql.begin((tx) => migration.up(tx))
 * ```
 */
export function postgresSearchMigrations(options: { vectors: VectorMode | 'detect' }): PgMigration[] {
  return [
    {
      id: options.vectors === 'detect' ? 'search-0001-passages' : `search-0001-passages-${options.vectors}`,
      async up(sql) {
        // 'detect' decides inside the migration, under its lock: pgvector when the extension can be created.
        const vectors = options.vectors === 'detect' ? await detectVectorSupport(sql) : options.vectors
        const embeddingType = vectors === 'pgvector' ? 'vector' : 'bytea'
        if (vectors === 'pgvector') await sql`CREATE EXTENSION IF NOT EXISTS vector`
        await sql.unsafe(`
          CREATE TABLE search_passages (
            seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            id text COLLATE "C" NOT NULL UNIQUE,
            file_id text COLLATE "C" NOT NULL REFERENCES files (id) ON DELETE CASCADE,
            bot_id text COLLATE "C" NOT NULL,
            position integer NOT NULL,
            content text NOT NULL,
            subtype text NOT NULL,
            page_number integer,
            breadcrumb_json text NOT NULL,
            embedder_id text COLLATE "C",
            vector_dimensions integer,
            embedding ${embeddingType},
            content_tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, ${foldedTextSql('content')})) STORED,
            UNIQUE (file_id, position)
          )`)
        await sql`CREATE INDEX search_passages_tsv ON search_passages USING gin (content_tsv)`
        await sql`CREATE INDEX search_passages_bot_embedder ON search_passages (bot_id, embedder_id, vector_dimensions)`
      },
    },
    {
      // What a passage is (decision 1435): a chunk of the document, a summary a language model wrote, an image caption.
      id: 'search-0002-passage-type',
      async up(sql) {
        await sql`ALTER TABLE search_passages ADD COLUMN IF NOT EXISTS passage_type text NOT NULL DEFAULT 'chunk'`
      },
    },
  ]
}

/**
 * The vector mode an existing search index was made with: `pgvector` when its `embedding` column is a `vector`,
 * else `exact` (also when the table does not exist yet).
 *
 * @example
 * ```ts
 * const vectors = await vectorModeOf(sql) // 'pgvector' | 'exact'
 * ```
 */
export async function vectorModeOf(sql: PgSql): Promise<VectorMode> {
  const rows = await sql`
    SELECT format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a
    WHERE a.attrelid = to_regclass('search_passages') AND a.attname = 'embedding' AND NOT a.attisdropped`
  return rows[0]?.['type'] === 'vector' ? 'pgvector' : 'exact'
}
