/**
 * The lexical side of the quality bench: SQLite FTS5 in an in-memory database, with the tokenizer settings the
 * search index uses, for BM25 ranking and for the stems the paraphrase check compares.
 */
import Database from 'better-sqlite3'
import { STOP_WORDS, wordsOf } from '../../server/src/search/embedding/index.js'

/** The FTS5 tokenizer of botshelf's search index. */
export const FTS5_TOKENIZER = 'porter unicode61 remove_diacritics 2'

/** Porter stems of every FTS5 token of each text, as the index would store them. */
export function fts5Stems(texts: readonly string[]): Set<string>[] {
  const db = new Database(':memory:')
  try {
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(body, tokenize = '${FTS5_TOKENIZER}')`)
    db.exec(`CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')`)
    const insert = db.prepare('INSERT INTO t (rowid, body) VALUES (?, ?)')
    texts.forEach((text, i) => insert.run(i + 1, text))
    const stems = texts.map(() => new Set<string>())
    for (const row of db.prepare('SELECT doc, term FROM v').iterate() as Iterable<{ doc: number; term: string }>) stems[row.doc - 1]!.add(row.term)
    return stems
  } finally {
    db.close()
  }
}

const stopStems = fts5Stems([[...STOP_WORDS].join(' ')])[0]!

/**
 * The content words of each text as stems: the FTS5 stems of its words outside the stop-word list, read both the
 * way the offline embedder splits words (camelCase apart) and the way FTS5 does, so nothing slips between them.
 */
export function contentStems(texts: readonly string[]): Set<string>[] {
  const ownSplit = fts5Stems(texts.map((text) => wordsOf(text).filter((word) => !STOP_WORDS.has(word)).join(' ')))
  const ftsSplit = fts5Stems(texts)
  return texts.map((_, i) => new Set([...ownSplit[i]!, ...[...ftsSplit[i]!].filter((stem) => !stopStems.has(stem))]))
}

/** A BM25 ranker over passages: FTS5 `MATCH` with the question's words ORed, best first. */
export class Bm25Index {
  private readonly db = new Database(':memory:')
  private readonly ids: string[] = []

  constructor(passages: readonly { id: string; text: string }[]) {
    this.db.exec(`CREATE VIRTUAL TABLE passages USING fts5(body, tokenize = '${FTS5_TOKENIZER}')`)
    const insert = this.db.prepare('INSERT INTO passages (rowid, body) VALUES (?, ?)')
    this.db.transaction(() => passages.forEach((passage, i) => insert.run(i + 1, passage.text)))()
    this.ids = passages.map((p) => p.id)
  }

  /** The best `limit` passage ids for `question`; `dropStopWords` leaves function words out of the query. */
  search(question: string, limit: number, dropStopWords: boolean): string[] {
    const words = [...new Set(wordsOf(question))].filter((word) => !dropStopWords || !STOP_WORDS.has(word))
    if (words.length === 0) return []
    const query = words.map((word) => `"${word}"`).join(' OR ')
    const rows = this.db.prepare('SELECT rowid FROM passages WHERE passages MATCH ? ORDER BY bm25(passages) LIMIT ?').all(query, limit) as { rowid: number }[]
    return rows.map((row) => this.ids[row.rowid - 1]!)
  }

  close(): void {
    this.db.close()
  }
}
