/**
 * CSV for table export and import (RFC 4180): comma-separated, `"`-quoted when needed, `""` for a quote,
 * CRLF between records. An empty unquoted field is "no value" (null); a quoted empty field `""` is the
 * empty string, so both survive a round trip.
 */

/** One parsed field: its text and whether it was quoted. */
export interface CsvField {
  text: string
  quoted: boolean
}

/** How CSV output treats text that a spreadsheet would run as a formula (decision 1462). */
export interface CsvFormulaOptions {
  /**
   * `true` writes text starting with `=`, `+`, `-`, `@`, a tab or a carriage return as it is; by default such text
   * gets a leading `'`, so a spreadsheet opening the file shows it instead of running it.
   */
  rawFormulas?: boolean
}

const FORMULA_LEAD = /^[=+\-@\t\r]/

/**
 * The text a spreadsheet shows instead of running: text starting with `=`, `+`, `-`, `@`, a tab or a carriage return
 * gets a leading `'` (what spreadsheets read as "text, not a formula"); any other text is returned as it is.
 *
 * @example
 * ```ts
 * neutraliseFormula('=HYPERLINK("http://evil/")') // '\'=HYPERLINK("http://evil/")'
 * neutraliseFormula('Ada') // 'Ada'
 * ```
 */
export function neutraliseFormula(text: string): string {
  return FORMULA_LEAD.test(text) ? `'${text}` : text
}

/**
 * Renders one CSV field: `null`/`undefined` → empty, strings quoted when they hold `,` `"` CR LF, edge
 * spaces, or are empty; numbers and booleans as text; objects and arrays as quoted JSON. A string a spreadsheet
 * would run as a formula is neutralised ({@link neutraliseFormula}) unless `rawFormulas` is set; numbers and
 * booleans are values, never formulas (`-5` stays `-5`).
 *
 * @example
 * ```ts
 * csvField('a,b') // '"a,b"'
 * csvField(null) // ''
 * csvField('') // '""'
 * csvField('=1+1') // "'=1+1"
 * csvField('=1+1', { rawFormulas: true }) // '=1+1'
 * ```
 */
export function csvField(value: unknown, options: CsvFormulaOptions = {}): string {
  if (value === null || value === undefined) return ''
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value)
  if (typeof value === 'string' && options.rawFormulas !== true) text = neutraliseFormula(text)
  const needsQuotes = typeof value === 'object' || text === '' || /[",\r\n]/.test(text) || text.trim() !== text
  return needsQuotes ? `"${text.replaceAll('"', '""')}"` : text
}

/**
 * Renders one CSV record (no line ending), formulas neutralised unless `rawFormulas` is set ({@link csvField}).
 *
 * @example
 * ```ts
 * csvRecord([1, 'Ada', null]) // '1,Ada,'
 * csvRecord(['@SUM(1,1)']) // '"\'@SUM(1,1)"'
 * ```
 */
export function csvRecord(values: readonly unknown[], options: CsvFormulaOptions = {}): string {
  return values.map((value) => csvField(value, options)).join(',')
}

/**
 * Parses CSV text into records of fields (with their quoting). Accepts CRLF or LF, a final newline or
 * not, and a UTF-8 BOM. Throws on an unterminated quote or text after a closing quote.
 *
 * @example
 * ```ts
 * parseCsv('a,"b,c"\n1,""\n').map((r) => r.map((f) => f.text)) // [['a', 'b,c'], ['1', '']]
 * ```
 */
export function parseCsv(input: string): CsvField[][] {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input
  const records: CsvField[][] = []
  let record: CsvField[] = []
  let i = 0
  let line = 1
  const n = text.length
  if (n === 0) return records
  while (i <= n) {
    let field: CsvField
    if (text[i] === '"') {
      let value = ''
      i++
      for (;;) {
        if (i >= n) throw new Error(`CSV line ${line}: a quoted field is not closed`)
        const ch = text[i]!
        if (ch === '"') {
          if (text[i + 1] === '"') {
            value += '"'
            i += 2
            continue
          }
          i++
          break
        }
        if (ch === '\n') line++
        value += ch
        i++
      }
      field = { text: value, quoted: true }
      if (i < n && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') throw new Error(`CSV line ${line}: text after a closing quote`)
    } else {
      let end = i
      while (end < n && text[end] !== ',' && text[end] !== '\n' && text[end] !== '\r') end++
      field = { text: text.slice(i, end), quoted: false }
      i = end
    }
    record.push(field)
    if (i >= n) {
      records.push(record)
      break
    }
    const ch = text[i]
    if (ch === ',') {
      i++
      if (i === n) {
        record.push({ text: '', quoted: false })
        records.push(record)
        break
      }
      continue
    }
    // end of record
    if (ch === '\r' && text[i + 1] === '\n') i += 2
    else i++
    line++
    records.push(record)
    record = []
    if (i >= n) break
  }
  return records
}
