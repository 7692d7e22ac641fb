import type { PgMigration } from '../pg-types.js'

/**
 * Schema of the tables port on PostgreSQL: the catalog of tables (one row per user table, with its normalized
 * JSON schema, the map column → PostgreSQL column, and the last row id handed out), its tag side table, and the
 * table jobs. Each user table's rows live in their own table `ut_<ulid>`, created by the port, not by a
 * migration. Texts compared or sorted (ids, times) are `COLLATE "C"`: bytewise, as on SQLite.
 *
 * @example
 * ```ts
 * for (const migration of postgresTablesMigrations) await pool.begin((tx) => migration.up(tx))
 * ```
 */
export const postgresTablesMigrations: PgMigration[] = [
  {
    id: 'tables-0001-catalog',
    up: async (sql) => {
      await sql.unsafe(`
        CREATE TABLE tables_catalog (
          id text COLLATE "C" PRIMARY KEY,
          bot_id text NOT NULL,
          name text NOT NULL,
          physical text NOT NULL UNIQUE,
          schema_json text NOT NULL,
          physical_json text NOT NULL,
          next_column integer NOT NULL,
          factor integer NOT NULL DEFAULT 1,
          frozen boolean NOT NULL DEFAULT false,
          key_column text,
          tags_json text NOT NULL DEFAULT '{}',
          is_compute_enabled boolean NOT NULL DEFAULT false,
          last_row_id integer NOT NULL DEFAULT 0,
          created_at text COLLATE "C" NOT NULL,
          updated_at text COLLATE "C" NOT NULL,
          UNIQUE (bot_id, name)
        );
        CREATE INDEX tables_catalog_by_bot ON tables_catalog (bot_id, created_at, id);
        CREATE TABLE table_tags (
          table_id text COLLATE "C" NOT NULL REFERENCES tables_catalog(id) ON DELETE CASCADE,
          bot_id text NOT NULL,
          tag_key text NOT NULL,
          tag_value text NOT NULL,
          PRIMARY KEY (table_id, tag_key)
        );
        CREATE INDEX table_tags_lookup ON table_tags (bot_id, tag_key, tag_value, table_id);
        CREATE TABLE tables_jobs (
          id text COLLATE "C" PRIMARY KEY,
          bot_id text NOT NULL,
          table_id text COLLATE "C" NOT NULL,
          type text NOT NULL,
          status text NOT NULL,
          progress double precision NOT NULL DEFAULT 0,
          input_file_id text,
          output_file_id text,
          error text,
          rows_committed integer NOT NULL DEFAULT 0,
          created_at text COLLATE "C" NOT NULL,
          updated_at text COLLATE "C" NOT NULL
        );
        CREATE INDEX tables_jobs_by_table ON tables_jobs (table_id, created_at);
      `)
    },
  },
  {
    // A number every change of a table's catalog row moves (not the last row id handed out): finds on the pool
    // run with a cached catalog record and check, in the same statement, that it is still this version
    // (docs/decisions/0963-cached-catalog-for-finds.md). A trigger, so no writer of the catalog can forget it.
    id: 'tables-0002-catalog-version',
    up: async (sql) => {
      await sql.unsafe(`
        ALTER TABLE tables_catalog ADD COLUMN version bigint NOT NULL DEFAULT 0;
        CREATE FUNCTION tables_catalog_next_version() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF to_jsonb(NEW) - 'last_row_id' - 'version' IS DISTINCT FROM to_jsonb(OLD) - 'last_row_id' - 'version' THEN
            NEW.version := OLD.version + 1;
          ELSE
            NEW.version := OLD.version;
          END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER tables_catalog_version BEFORE UPDATE ON tables_catalog
          FOR EACH ROW EXECUTE FUNCTION tables_catalog_next_version();
      `)
    },
  },
  {
    // The freshness check of a find on a cached catalog record (decision 0965): whether the catalog row of `id`
    // still belongs to `bot_id`, is at `version` and, when `name` is given, has that name. A STABLE function reads
    // the snapshot of the statement that calls it, so the check and the rows are one snapshot as before; a call
    // with no column of the rows is a one-time filter, and PL/pgSQL is never inlined, so the find's plan does not
    // grow a subquery (measured: 0.02 ms over the bare find text where the EXISTS subquery cost 0.05 ms).
    id: 'tables-0003-catalog-current',
    up: async (sql) => {
      await sql.unsafe(`
        CREATE FUNCTION tables_catalog_current(p_id text, p_bot_id text, p_version bigint, p_name text) RETURNS boolean
        LANGUAGE plpgsql STABLE AS $$
        BEGIN
          RETURN EXISTS (SELECT 1 FROM tables_catalog WHERE id = p_id AND bot_id = p_bot_id AND version = p_version AND (p_name IS NULL OR name = p_name));
        END $$;
      `)
    },
  },
]
