/**
 * The characters the full-text index folds before PostgreSQL's `english` parser sees the text, as the two argument
 * strings of `translate(text, FOLD_FROM, FOLD_TO)`: every Latin letter with a diacritic (U+00C0 to U+024F) becomes
 * its base letter, as FTS5's `remove_diacritics 2` does on SQLite, and ASCII punctuation becomes a space, so
 * `ZX-81` is the words `zx` and `81` on both engines (the parser would otherwise read `-81` as a signed number).
 * `translate` is immutable and needs no extension (`unaccent` is a contrib module that may be absent and is not
 * immutable), so it can feed a generated column. Built from Unicode decomposition, not from a hand-written table.
 */
function foldPairs(): { from: string; to: string } {
  let from = ''
  let to = ''
  for (let code = 0xc0; code <= 0x24f; code++) {
    const char = String.fromCodePoint(code)
    const base = char.normalize('NFD').replace(/\p{M}+/gu, '')
    if (base.length === 1 && base !== char) {
      from += char
      to += base
    }
  }
  for (const char of '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~') {
    from += char
    to += ' '
  }
  return { from, to }
}

const pairs = foldPairs()

/**
 * First argument string of the folding `translate` (see {@link FOLD_TO}).
 *
 * @example
 * ```ts
 * FOLD_FROM.includes('é') // true
 * ```
 */
export const FOLD_FROM = pairs.from

/**
 * Second argument string of the folding `translate`: the replacement of each character of {@link FOLD_FROM}.
 *
 * @example
 * ```ts
 * FOLD_TO[FOLD_FROM.indexOf('é')] // 'e'
 * ```
 */
export const FOLD_TO = pairs.to

/**
 * A SQL string literal (single quotes doubled), for the constants of a generated column where no parameter can go.
 *
 * @example
 * ```ts
 * sqlStringLiteral("it's") // "'it''s'"
 * ```
 */
export function sqlStringLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`
}

/**
 * The folded text the index and the queries both parse: `translate(<expression>, FOLD_FROM, FOLD_TO)` as SQL.
 *
 * @example
 * ```ts
 * foldedTextSql('content') // "translate(content, '...', '...')"
 * ```
 */
export function foldedTextSql(expression: string): string {
  return `translate(${expression}, ${sqlStringLiteral(FOLD_FROM)}, ${sqlStringLiteral(FOLD_TO)})`
}

/**
 * What the folding does, in the process (for tests and for explaining a match): the same mapping as the SQL.
 *
 * @example
 * ```ts
 * foldText('Éléonore, ZX-81') // 'Eleonore  ZX 81'
 * ```
 */
export function foldText(text: string): string {
  let out = ''
  for (const char of text) {
    const at = FOLD_FROM.indexOf(char)
    out += at === -1 ? char : FOLD_TO[at]
  }
  return out
}
