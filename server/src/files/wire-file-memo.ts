import type { File } from 'botshelf/api'
import type { FileRecord } from '../store/index.js'
import { toWireFile, type FileViewContext } from './file-view.js'

interface KeptAnswer {
  second: number
  base: string
  answer: Readonly<{ file: File }>
}

/**
 * `getFile`'s answer `{ file }` for a stored record, kept per record object for the second it was made in (decision
 * 1235). The answer depends on the record, the base URL and the second alone (a private file's `url` expires a fixed
 * number of whole seconds after `now`; a presigned URL is signed to the second), so within one second the same record
 * gives the same answer: it is frozen and handed out again, and `jsonText` keeps its text.
 *
 * Only frozen records are kept: the SQLite adapter hands out the same frozen record while the database has not changed
 * (decision 1231); any other record (PostgreSQL's, fresh on every read) gets a fresh answer, as before.
 *
 * @example
 * ```ts
 * const memo = new WireFileMemo()
 * return memo.answer(record, { signingKey, base, now: services.now(), lifetimes })
 * ```
 */
export class WireFileMemo {
  private readonly kept = new WeakMap<FileRecord, KeptAnswer>()

  /**
   * The answer for `record` at `context.now`.
   *
   * @example
   * ```ts
   * memo.answer(record, view) // { file: { id, key, url, ... } }
   * ```
   */
  answer(record: FileRecord, context: FileViewContext): { file: File } {
    if (!Object.isFrozen(record)) return { file: toWireFile(record, context) }
    const second = Math.floor(context.now.getTime() / 1000)
    const kept = this.kept.get(record)
    if (kept && kept.second === second && kept.base === context.base) return kept.answer
    const answer = Object.freeze({ file: Object.freeze(toWireFile(record, context)) })
    this.kept.set(record, { second, base: context.base, answer })
    return answer
  }
}
