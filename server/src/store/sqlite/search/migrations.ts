import type { Migration } from '../migrations.js'

/**
 * Schema of the search index: one row per passage (its text, kind, place in the document and, when an embedder
 * made one, its vector as float32 bytes beside the id of that embedder), belonging to a file row so deleting the
 * file deletes its passages; an FTS5 index over the text kept in step by triggers (BM25 ranking, Porter stemming,
 * diacritics folded). Vectors sit in the row as float32 and, for the scan, as an int8 copy in a covering index
 * (`search-0005`, `botshelf_int8`); both are compared with sqlite-vec's `vec_distance_cosine`, and the caller's scope and tag filter
 * narrow the rows before any distance is computed.
 *
 * @example
 * ```ts
 * runMigrations(db, [...filesMigrations, ...searchMigrations])
 * ```
 */
export const searchMigrations: ReadonlyArray<Migration> = [
  {
    id: 'search-0001-passages-fts',
    up(db) {
      db.exec(`
        CREATE TABLE search_passages (
          rowid INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          file_id TEXT NOT NULL REFERENCES files(id) ON DELETE CASCADE,
          bot_id TEXT NOT NULL,
          position INTEGER NOT NULL,
          content TEXT NOT NULL,
          subtype TEXT NOT NULL,
          page_number INTEGER,
          breadcrumb_json TEXT NOT NULL,
          embedder_id TEXT,
          embedding BLOB,
          UNIQUE (file_id, position)
        );
        CREATE INDEX search_passages_bot_embedder ON search_passages (bot_id, embedder_id);

        CREATE VIRTUAL TABLE search_passages_fts USING fts5(
          content,
          content = 'search_passages',
          content_rowid = 'rowid',
          tokenize = 'porter unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER search_passages_after_insert AFTER INSERT ON search_passages BEGIN
          INSERT INTO search_passages_fts (rowid, content) VALUES (new.rowid, new.content);
        END;
        CREATE TRIGGER search_passages_after_delete AFTER DELETE ON search_passages BEGIN
          INSERT INTO search_passages_fts (search_passages_fts, rowid, content) VALUES ('delete', old.rowid, old.content);
        END;
      `)
    },
  },
  {
    // The approximate vector stage (decision 0821): a passage's list, written with the passage; the trained
    // centroids of each bot and embedder. Existing passages start without a list (exact search) and the lists are
    // trained after open when a bot holds enough vectors.
    id: 'search-0002-vector-lists',
    up(db) {
      db.exec(`
        ALTER TABLE search_passages ADD COLUMN list_id INTEGER;
        DROP INDEX search_passages_bot_embedder;
        CREATE INDEX search_passages_lists ON search_passages (bot_id, embedder_id, list_id);
        CREATE TABLE search_vector_lists (
          bot_id TEXT NOT NULL,
          embedder_id TEXT NOT NULL,
          dimensions INTEGER NOT NULL,
          lists INTEGER NOT NULL,
          trained_vectors INTEGER NOT NULL,
          version INTEGER NOT NULL,
          centroids BLOB NOT NULL,
          measured_recall REAL NOT NULL,
          trained_at TEXT NOT NULL,
          PRIMARY KEY (bot_id, embedder_id)
        );
      `)
    },
  },
  {
    // What a passage is (decision 1435): a chunk of the document, a summary a language model wrote, an image caption.
    id: 'search-0003-passage-type',
    up(db) {
      db.exec(`ALTER TABLE search_passages ADD COLUMN passage_type TEXT NOT NULL DEFAULT 'chunk'`)
    },
  },
  {
    // The probe count chosen at training by estimated recall (decision 1478); NULL (lists trained before it) probes
    // the settings' count, as before.
    id: 'search-0004-vector-list-probes',
    up(db) {
      db.exec('ALTER TABLE search_vector_lists ADD COLUMN probes INTEGER')
    },
  },
  {
    // The vector scan reads an int8 copy of each vector from one covering index (decision 1457): the lists probed
    // are contiguous runs of the index, not a table lookup per passage, and a quarter of the float32 bytes. The copy
    // (`botshelf_int8`, registered on every connection) is written with the vector by the port and kept in step by
    // triggers wherever a write leaves it behind (a new vector without its copy, a vector changed and the copy not),
    // so no write path can miss it; a blob that is no float32 vector gets none (the scan skips it, as it skipped a
    // vector of another length).
    id: 'search-0005-vector-scan-int8',
    up(db) {
      db.exec(`
        ALTER TABLE search_passages ADD COLUMN embedding_i8 BLOB;
        UPDATE search_passages SET embedding_i8 = botshelf_int8(embedding) WHERE embedding IS NOT NULL;
        CREATE TRIGGER search_passages_int8_after_insert AFTER INSERT ON search_passages
          WHEN new.embedding IS NOT NULL AND new.embedding_i8 IS NULL BEGIN
          UPDATE search_passages SET embedding_i8 = botshelf_int8(new.embedding) WHERE rowid = new.rowid;
        END;
        CREATE TRIGGER search_passages_int8_after_update AFTER UPDATE OF embedding ON search_passages
          WHEN new.embedding_i8 IS old.embedding_i8 BEGIN
          UPDATE search_passages SET embedding_i8 = botshelf_int8(new.embedding) WHERE rowid = new.rowid;
        END;
        DROP INDEX search_passages_lists;
        CREATE INDEX search_passages_vector_scan ON search_passages (bot_id, embedder_id, list_id, file_id, embedding_i8);
      `)
    },
  },
]
