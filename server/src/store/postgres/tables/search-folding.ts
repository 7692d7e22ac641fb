/**
 * The Latin letters with diacritics (U+00C0 to U+024F) that decompose into a base letter and marks, and those base
 * letters: search folds one into the other on both sides (documents and words), as SQLite's FTS5 unicode61
 * tokenizer does, so `eleonore` finds `Éléonore` (docs/decisions/0912-postgres-search.md). PostgreSQL's
 * `translate()` applies the same table inside the generated search column.
 */
function foldingTable(): { from: string; to: string } {
  let from = ''
  let to = ''
  for (let code = 0xc0; code <= 0x24f; code++) {
    const letter = String.fromCodePoint(code)
    const base = letter.normalize('NFD').replace(/\p{M}/gu, '')
    if (base !== letter && base.length === 1) {
      from += letter
      to += base
    }
  }
  return { from, to }
}

/**
 * The two strings of the folding: `from[i]` becomes `to[i]`.
 *
 * @example
 * ```ts
 * `translate(${text}, '${searchFolding.from}', '${searchFolding.to}')`
 * ```
 */
export const searchFolding: Readonly<{ from: string; to: string }> = foldingTable()

const folded = new Map([...searchFolding.from].map((letter, i) => [letter, searchFolding.to[i]!]))

/**
 * A search word with its diacritics folded as the search column folds them.
 *
 * @example
 * ```ts
 * foldDiacritics('Éléonore') // 'Eleonore'
 * ```
 */
export function foldDiacritics(word: string): string {
  return [...word].map((c) => folded.get(c) ?? c).join('')
}
