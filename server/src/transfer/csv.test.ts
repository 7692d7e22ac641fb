import { describe, expect, it } from 'vitest'
import { csvField, csvRecord, neutraliseFormula, parseCsv } from './csv.js'

describe('csv', () => {
  it('quotes only what needs quoting and keeps null apart from the empty string', () => {
    expect(csvRecord([1, 'Ada', null, '', 'a,b', 'say "hi"', ' pad', true, { a: 1 }, ['x']])).toBe(
      '1,Ada,,"",' + '"a,b","say ""hi"""," pad",true,"{""a"":1}","[""x""]"',
    )
    expect(csvField(undefined)).toBe('')
  })

  it('neutralises text a spreadsheet would run (= + - @, tab, CR) unless told to keep it raw; numbers stay numbers', () => {
    expect(['=1+1', '+1', '-1', '@SUM(1)', '\tx', '\rx', 'a=b', "'=x"].map((text) => neutraliseFormula(text))).toEqual(["'=1+1", "'+1", "'-1", "'@SUM(1)", "'\tx", "'\rx", 'a=b', "'=x"])
    expect(csvRecord(['=HYPERLINK("http://evil/")', -5, '@a,b', '\tpad'])).toBe(`"'=HYPERLINK(""http://evil/"")",-5,"'@a,b",'\tpad`)
    expect(csvRecord(['=1+1', '-1'], { rawFormulas: true })).toBe('=1+1,-1')
  })

  it('round-trips records, including newlines inside quotes and CRLF', () => {
    const rows = [['id', 'note'], ['1', 'line one\nline two'], ['2', ''], ['3', 'a "quote"']]
    const text = rows.map((r) => csvRecord(r)).join('\r\n') + '\r\n'
    expect(parseCsv(text).map((r) => r.map((f) => f.text))).toEqual(rows)
  })

  it('tells an empty unquoted field from a quoted empty one', () => {
    expect(parseCsv('a,b,c\n,"",x')).toEqual([
      [{ text: 'a', quoted: false }, { text: 'b', quoted: false }, { text: 'c', quoted: false }],
      [{ text: '', quoted: false }, { text: '', quoted: true }, { text: 'x', quoted: false }],
    ])
  })

  it('accepts a BOM, LF endings, no final newline and a trailing empty field', () => {
    expect(parseCsv('\uFEFFa,b\n1,').map((r) => r.map((f) => f.text))).toEqual([['a', 'b'], ['1', '']])
  })

  it('refuses an unterminated quote and text after a closing quote, naming the line', () => {
    expect(() => parseCsv('a\n"open')).toThrow('CSV line 2: a quoted field is not closed')
    expect(() => parseCsv('"a"b')).toThrow('text after a closing quote')
  })
})
