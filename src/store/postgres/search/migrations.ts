import type { PgMigration } from '../pg-types.js'
import { foldedTextSql } from './text-folding.js'
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
export function postgresSearchMigrations(options: { vectors: VectorMode }): PgMigration[] {
  const embeddingType = options.vectors === 'pgvector' ? 'vector' : 'bytea'
  return [
    {
      id: `search-0001-passages-${options.vectors}`,
      async up(sql) {
        if (options.vectors === 'pgvector') await sql`CREATE EXTENSION IF NOT EXISTS vector`
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
  ]
}
