import { describe, expect, it } from 'vitest'
import { ExtractionError } from './extraction-error.js'
import { setPassagesFromWire } from './set-passages-from-wire.js'

describe('setPassagesFromWire', () => {
  it('keeps the caller’s boundaries, order and page numbers, and builds breadcrumbs from titles', () => {
    const passages = setPassagesFromWire([
      { content: 'Manual', type: 'title', pageNumber: 1 },
      { content: 'Short one.', pageNumber: 1 },
      { content: 'Short two.', pageNumber: 1 },
      { content: 'Setup', type: 'subtitle', pageNumber: 2 },
      { content: '- a\n- b', type: 'list', pageNumber: 2 },
      { content: '> quoted', type: 'blockquote' },
      { content: '   ' },
      { content: 'A diagram', type: 'image' },
    ])
    expect(passages.map((p) => [p.meta.subtype, p.meta.pageNumber, p.breadcrumb, p.content, p.meta.position])).toEqual([
      ['title', 1, [], 'Manual', 0],
      ['paragraph', 1, ['Manual'], 'Short one.', 1],
      ['paragraph', 1, ['Manual'], 'Short two.', 2],
      ['subtitle', 2, ['Manual'], 'Setup', 3],
      ['list', 2, ['Manual', 'Setup'], '- a\n- b', 4],
      ['blockquote', undefined, ['Manual', 'Setup'], '> quoted', 5],
      ['image', undefined, ['Manual', 'Setup'], 'A diagram', 6],
    ])
  })

  it('splits long passages with the chunker: paragraphs with overlap, tables by rows, code by lines', () => {
    const paragraph = Array.from({ length: 40 }, (_, i) => `Point ${i} matters.`).join(' ')
    const table = ['| k | v |', '| --- | --- |', ...Array.from({ length: 40 }, (_, i) => `| key${i} | value${i} |`)].join('\n')
    const code = '```js\n' + Array.from({ length: 40 }, (_, i) => `call(${i})`).join('\n') + '\n```'
    const passages = setPassagesFromWire(
      [
        { content: paragraph, pageNumber: 3 },
        { content: table, type: 'table', pageNumber: 3 },
        { content: code, type: 'code', pageNumber: 3 },
      ],
      { maximumChunkLength: 150 },
    )
    expect(passages.every((p) => p.content.length <= 150 && p.meta.pageNumber === 3)).toBe(true)
    const paragraphs = passages.filter((p) => p.meta.subtype === 'paragraph')
    expect(paragraphs.length).toBeGreaterThan(3)
    expect(paragraphs[1]!.content.startsWith(paragraphs[0]!.content.split('. ').at(-1)!.replace(/\.$/, ''))).toBe(true)
    const tables = passages.filter((p) => p.meta.subtype === 'table')
    expect(tables.length).toBeGreaterThan(3)
    expect(tables.every((p) => p.content.startsWith('| k | v |\n| --- | --- |\n| key'))).toBe(true)
    const codes = passages.filter((p) => p.meta.subtype === 'code')
    expect(codes.every((p) => p.content.startsWith('```js\ncall(') && p.content.endsWith('\n```'))).toBe(true)
    expect(codes.flatMap((p) => p.content.split('\n').slice(1, -1))).toEqual(Array.from({ length: 40 }, (_, i) => `call(${i})`))
  })

  it('refuses a bad chunk length or page number, naming the field', () => {
    expect(() => setPassagesFromWire([{ content: 'x' }], { maximumChunkLength: 99 })).toThrow(ExtractionError)
    expect(() => setPassagesFromWire([{ content: 'x', pageNumber: 0 }])).toThrow('passages[0].pageNumber: expected a positive integer, received 0')
    expect(() => setPassagesFromWire([{ content: 5 as unknown as string }])).toThrow('passages[0].content: expected a string, received number')
  })
})
