/** Words that end with a period without ending a sentence (compared in lower case, without the period). */
const abbreviations = new Set(['e.g', 'i.e', 'etc', 'vs', 'mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'no', 'fig', 'cf', 'approx', 'inc', 'ltd', 'jr', 'sr'])

/**
 * Splits normalized text (single spaces) into sentences: after `.`, `!`, `?` or `…` (and closing quotes or
 * brackets) followed by a space and a character that is not a lower-case letter, unless the word before is a
 * known abbreviation or a single letter (initials); after `。`, `！`, `？` always. The pieces joined with one space
 * give the text back.
 *
 * @example
 * ```ts
 * splitSentences('Dr. Smith came. He left! Did he? yes.') // ['Dr. Smith came.', 'He left!', 'Did he? yes.']
 * ```
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = []
  let start = 0
  const boundary = /([.!?…]+["'”’)\]]*) (?=[^\p{Ll}])|([。！？]+)/gu
  for (let match = boundary.exec(text); match !== null; match = boundary.exec(text)) {
    if (match[1] !== undefined) {
      const end = match.index + match[1].length
      if (match[1].startsWith('.') && isAbbreviation(text, match.index)) continue
      pushTrimmed(sentences, text.slice(start, end))
      start = end + 1
    } else {
      const end = match.index + match[0].length
      pushTrimmed(sentences, text.slice(start, end))
      start = end
    }
  }
  pushTrimmed(sentences, text.slice(start))
  return sentences
}

function isAbbreviation(text: string, periodAt: number): boolean {
  const wordStart = text.lastIndexOf(' ', periodAt - 1) + 1
  const word = text.slice(wordStart, periodAt).toLowerCase().replace(/^["'“‘(\[]+/, '')
  return word.length === 1 ? /\p{L}/u.test(word) : abbreviations.has(word)
}

function pushTrimmed(into: string[], piece: string): void {
  const trimmed = piece.trim()
  if (trimmed !== '') into.push(trimmed)
}
