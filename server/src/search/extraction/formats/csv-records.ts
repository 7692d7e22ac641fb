import { ExtractionError } from '../extraction-error.js'

/**
 * The records of CSV text with the RFC 4180 rules the tables import uses: fields separated by the delimiter,
 * records by CRLF, LF or a lone CR, a field quoted when it starts with `"` (`""` inside for a quote, line breaks
 * allowed), no empty record after a final line ending. Blank lines are skipped. An unterminated quoted field or
 * text after a closing quote is `CORRUPT_DOCUMENT` naming the line. Linear in the text, no backtracking.
 *
 * @example
 * ```ts
 * parseCsvRecords('a,b\r\n"x,1","say ""hi"""\n', ',', 'k.csv') // [['a', 'b'], ['x,1', 'say "hi"']]
 * ```
 */
export function parseCsvRecords(text: string, delimiter: string, key: string): string[][] {
  const records: string[][] = []
  const n = text.length
  let i = 0
  let line = 1
  while (i < n) {
    const record: string[] = []
    const recordLine = line
    for (;;) {
      let field = ''
      if (text[i] === '"') {
        i++
        for (;;) {
          if (i >= n) throw new ExtractionError('CORRUPT_DOCUMENT', `${key} is not valid CSV: the quoted field opened on line ${recordLine} never closes`)
          const quote = text.indexOf('"', i)
          const end = quote < 0 ? n : quote
          const piece = text.slice(i, end)
          line += countLineBreaks(piece)
          field += piece
          i = end
          if (quote < 0) continue
          if (text[quote + 1] === '"') {
            field += '"'
            i = quote + 2
            continue
          }
          i = quote + 1
          break
        }
        const next = text[i]
        if (i < n && next !== delimiter && next !== '\n' && next !== '\r') {
          throw new ExtractionError('CORRUPT_DOCUMENT', `${key} is not valid CSV: text after a closing quote on line ${line}`)
        }
      } else {
        const start = i
        while (i < n) {
          const c = text[i]
          if (c === delimiter || c === '\n' || c === '\r') break
          i++
        }
        field = text.slice(start, i)
      }
      record.push(field)
      if (i < n && text[i] === delimiter) {
        i++
        if (i < n) continue
        record.push('')
      }
      break
    }
    if (text[i] === '\r') i++
    if (text[i] === '\n') i++
    line++
    if (record.length > 1 || record[0] !== '') records.push(record)
  }
  return records
}

function countLineBreaks(text: string): number {
  let count = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x0a) count++
    else if (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a) count++
  }
  return count
}

/**
 * The delimiter of a CSV text: `,` unless its first line has more `;` or tabs (outside quotes) than commas.
 *
 * @example
 * ```ts
 * sniffDelimiter('a;b;c\n1;2;3') // ';'
 * ```
 */
export function sniffDelimiter(text: string): string {
  const counts = new Map<string, number>([[',', 0], [';', 0], ['\t', 0]])
  let quoted = false
  for (let i = 0; i < text.length && i < 65_536; i++) {
    const c = text[i]!
    if (c === '"') quoted = !quoted
    else if (!quoted && (c === '\n' || c === '\r')) break
    else if (!quoted && counts.has(c)) counts.set(c, counts.get(c)! + 1)
  }
  let best = ','
  for (const [candidate, count] of counts) if (count > counts.get(best)!) best = candidate
  return best
}
