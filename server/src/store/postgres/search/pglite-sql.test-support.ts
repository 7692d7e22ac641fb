import type { PGlite, Transaction } from '@electric-sql/pglite'
import type { PgSql } from '../pg-types.js'

type Runner = Pick<PGlite | Transaction, 'query'>
type Build = (params: unknown[]) => string

/** A piece of SQL that knows how to write itself, pushing its parameters as `$n`. */
class Fragment {
  constructor(readonly build: Build) {}
}

/** A query: a fragment that runs when awaited (as the postgres library's pending queries do). */
class PendingQuery extends Fragment implements PromiseLike<unknown[]> {
  constructor(
    build: Build,
    private readonly runner: Runner,
  ) {
    super(build)
  }

  private async run(): Promise<unknown[]> {
    const params: unknown[] = []
    const text = this.build(params)
    onQuery?.(text, params)
    const result = await this.runner.query(text, params)
    return Object.assign(result.rows.slice(), { count: result.affectedRows ?? result.rows.length })
  }

  then<A = unknown[], B = never>(onFulfilled?: ((rows: unknown[]) => A | PromiseLike<A>) | null, onRejected?: ((error: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    return this.run().then(onFulfilled, onRejected)
  }
}

function identifier(name: string): string {
  return `"${name.replaceAll('"', '""').replaceAll('.', '"."')}"`
}

function write(value: unknown, params: unknown[]): string {
  if (value instanceof Fragment) return value.build(params)
  params.push(value)
  return `$${params.length}`
}

let savepoints = 0
/** Sees every statement run through a wrapper, for tests that examine what a port sends (see {@link watchPgliteQueries}). */
let onQuery: ((text: string, params: unknown[]) => void) | undefined

/**
 * Calls `listener` with the text and parameters of every statement the wrappers run, until the returned function
 * is called.
 *
 * @example
 * ```ts
 * const seen: string[] = []; const stop = watchPgliteQueries((text) => seen.push(text))
 * ```
 */
export function watchPgliteQueries(listener: (text: string, params: unknown[]) => void): () => void {
  onQuery = listener
  return () => {
    onQuery = undefined
  }
}

function wrap(runner: Runner, begin: ((fn: (tx: PgSql) => Promise<unknown>) => Promise<unknown>) | undefined): PgSql {
  const sql = (first: unknown, ...values: unknown[]): Fragment => {
    if (Array.isArray(first) && 'raw' in first) {
      const strings = first as unknown as TemplateStringsArray
      return new PendingQuery((params) => strings.reduce((text, part, index) => text + part + (index < values.length ? write(values[index], params) : ''), ''), runner)
    }
    if (typeof first === 'string') return new Fragment(() => identifier(first))
    if (Array.isArray(first)) return new Fragment((params) => `(${first.map((item) => write(item, params)).join(', ')})`)
    throw new TypeError(`pglite sql: expected a template, a name or a list, received ${typeof first}`)
  }
  const members: Record<string, unknown> = {
    unsafe: (text: string, params: unknown[] = []) =>
      new PendingQuery((out) => {
        if (params.length > 0 && out.length > 0) throw new Error('pglite sql: an unsafe fragment with parameters cannot be nested')
        out.push(...params)
        return text
      }, runner),
  }
  if (begin) members['begin'] = begin
  else {
    members['savepoint'] = async (fn: (tx: PgSql) => Promise<unknown>) => {
      const name = `sp_${++savepoints}`
      await runner.query(`SAVEPOINT ${name}`)
      try {
        const result = await fn(self)
        await runner.query(`RELEASE SAVEPOINT ${name}`)
        return result
      } catch (error) {
        await runner.query(`ROLLBACK TO SAVEPOINT ${name}`)
        throw error
      }
    }
  }
  const self = Object.assign(sql, members) as unknown as PgSql
  return self
}

/**
 * A `PgSql`-shaped client over PGlite, for the tests that run the PostgreSQL ports on PGlite (pgvector included):
 * tagged templates become `$1..$n` statements, nested templates and `sql.unsafe` are inlined as fragments,
 * `sql('a.b')` is a quoted identifier, `sql([...])` a parenthesised list of parameters, `begin` a PGlite transaction
 * whose client has `savepoint`. Results are row arrays with `count`. Only what the search port uses is supported.
 *
 * @example
 * ```ts
 * const sql = pgliteSql(await PGlite.create({ extensions: { vector } }))
 * await sql`SELECT ${1}::int AS one`
 * ```
 */
export function pgliteSql(db: PGlite): PgSql {
  return wrap(db, (fn) => db.transaction((tx) => fn(wrap(tx, undefined))))
}
