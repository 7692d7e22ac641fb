/**
 * Positional parameters of one statement: each value gets its `$n` with an explicit cast, so the server never
 * guesses a type and values never become SQL text.
 *
 * @example
 * ```ts
 * const params = new SqlParams()
 * const where = `t."c1" > ${params.add(10, 'float8')}` // 't."c1" > $1::float8'
 * await query(context, `SELECT id FROM t WHERE ${where}`, params.values)
 * ```
 */
export class SqlParams {
  readonly values: unknown[] = []

  /**
   * Adds a value and returns its placeholder with the cast (`$3::text`).
   *
   * @example
   * ```ts
   * params.add(['a', 'b'], 'text[]') // '$1::text[]'
   * ```
   */
  add(value: unknown, cast: string): string {
    this.values.push(value)
    return `$${this.values.length}::${cast}`
  }
}
