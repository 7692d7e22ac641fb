import { describe, expect, it } from 'vitest'
import { parseCsvRecords, sniffDelimiter } from './csv-records.js'
import { htmlNestingDepth } from './html-nesting.js'
import { markdownSections } from './markdown-sections.js'
import { pdfBlocks } from './pdf-layout.js'
import { pipeTable } from './pipe-table.js'
import { xmlAttribute, xmlEvents } from './xml-events.js'

describe('parseCsvRecords', () => {
  it('follows RFC 4180: quotes, doubled quotes, line breaks in quotes, CRLF/LF/CR, a final comma, no trailing empty record', () => {
    expect(parseCsvRecords('a,b\r\n"x,1","say ""hi"""\n"multi\nline",\rlast,', ',', 'k')).toEqual([
      ['a', 'b'],
      ['x,1', 'say "hi"'],
      ['multi\nline', ''],
      ['last', ''],
    ])
    expect(parseCsvRecords('a\n\nb\n', ',', 'k')).toEqual([['a'], ['b']])
  })

  it('refuses text after a closing quote and an unterminated quote, naming the line', () => {
    expect(() => parseCsvRecords('a\n"x"y\n', ',', 'f.csv')).toThrow('f.csv is not valid CSV: text after a closing quote on line 2')
    expect(() => parseCsvRecords('a\n\n"open', ',', 'f.csv')).toThrow('the quoted field opened on line 3 never closes')
  })

  it('sniffs the delimiter from the first line', () => {
    expect(sniffDelimiter('a,b;c')).toBe(',')
    expect(sniffDelimiter('a;b;"c,d,e"')).toBe(';')
    expect(sniffDelimiter('a\tb\tc\n1,2,3,4,5')).toBe('\t')
  })
})

describe('htmlNestingDepth', () => {
  it('counts nesting, not void elements, optional end tags, comments or raw text', () => {
    expect(htmlNestingDepth('<div><section><p>a<p>b<br><img src=x></section></div>')).toBe(2)
    expect(htmlNestingDepth('<div><!-- <div><div> --><script>"<div><div><div>"</script><span/></div>')).toBe(1)
    expect(htmlNestingDepth('<div>'.repeat(1000))).toBe(1000)
    expect(htmlNestingDepth('<a<a<a<a')).toBe(0)
  })
})

describe('markdownSections', () => {
  it('cuts at top-level boundaries once a section is long enough, never inside fenced code', () => {
    const source = '# A\n\ntext\n\n```\n\nnot a cut\n```\n\n# B\n\n- item\n\n  continued\n\nend\n'
    const sections = markdownSections(source, 1)
    expect(sections.join('')).toBe(source)
    expect(sections).toEqual(['# A\n\n', 'text\n\n', '```\n\nnot a cut\n```\n\n', '# B\n\n', '- item\n\n  continued\n\n', 'end\n'])
  })
})

describe('pipeTable', () => {
  it('reads a pipe table and refuses text that is not one', () => {
    expect(pipeTable('a | b\n--- | ---\n1 | 2')).toEqual({ kind: 'table', style: 'markdown', header: ['a', 'b'], rows: [['1', '2']] })
    expect(pipeTable('just | a pipe\nand text')).toBeUndefined()
    expect(pipeTable('| a | b |\n| --- |')).toBeUndefined()
  })
})

describe('xmlEvents', () => {
  it('scans tags, attributes, entities and CDATA without a tree', () => {
    const events = [...xmlEvents('<?xml version="1.0"?><!-- c --><a:p x="1"><a:t>x &amp; &#x263A; &lt;y&gt;</a:t><a:br/><![CDATA[<raw>]]></a:p>')]
    expect(events).toEqual([
      { type: 'open', name: 'a:p', attributes: ' x="1"', selfClosing: false },
      { type: 'open', name: 'a:t', attributes: '', selfClosing: false },
      { type: 'text', text: 'x & ☺ <y>' },
      { type: 'close', name: 'a:t' },
      { type: 'open', name: 'a:br', attributes: '', selfClosing: true },
      { type: 'text', text: '<raw>' },
      { type: 'close', name: 'a:p' },
    ])
    expect(xmlAttribute(' r:id="rId2" type=\'title\'', 'r:id')).toBe('rId2')
    expect(xmlAttribute(' r:id="rId2" type=\'title\'', 'type')).toBe('title')
    expect(xmlAttribute(' xtype="a"', 'type')).toBeUndefined()
  })
})

describe('pdfBlocks', () => {
  it('finds headings by size rank, paragraphs by gaps, and joins hyphenated words', () => {
    const blocks = pdfBlocks([
      [
        { text: 'Big title', size: 24, y: 700 },
        { text: 'Section', size: 16, y: 660 },
        { text: 'A para-', size: 11, y: 640 },
        { text: 'graph goes on.', size: 11, y: 626 },
        { text: 'Another one.', size: 11, y: 590 },
      ],
    ])
    expect(blocks).toEqual([
      { kind: 'page', pageNumber: 1, resetHeadings: false },
      { kind: 'heading', level: 1, text: 'Big title' },
      { kind: 'heading', level: 2, text: 'Section' },
      { kind: 'paragraph', text: 'A paragraph goes on.' },
      { kind: 'paragraph', text: 'Another one.' },
    ])
  })
})
