import { describe, expect, it } from 'vitest'
import { ExtractionError } from '../extraction-error.js'
import type { ExtractedPassage } from '../passage.js'
import { chunkBlocks } from './chunk-blocks.js'
import type { DocumentBlock } from './document-block.js'
import { seededRandom } from 'botshelf/testing'
import { textMaker } from './text-maker.test-support.js'

const options = (maximumChunkLength: number) => ({ maximumChunkLength, maxOutputChars: 10_000_000, key: 'doc.md' })

describe('chunkBlocks: structure', () => {
  const blocks: DocumentBlock[] = [
    { kind: 'paragraph', text: 'Before any heading.' },
    { kind: 'heading', level: 1, text: 'Guide' },
    { kind: 'paragraph', text: 'Intro  text\n here.' },
    { kind: 'heading', level: 2, text: 'Install' },
    { kind: 'paragraph', text: 'Run the installer.' },
    { kind: 'list', items: ['download', 'run'], ordered: true },
    { kind: 'heading', level: 3, text: 'Linux' },
    { kind: 'code', text: 'apt install x  \n\n\n\nx --version', language: 'sh' },
    { kind: 'heading', level: 2, text: 'Use' },
    { kind: 'blockquote', text: 'Quoted words.' },
  ]

  it('turns headings into title/subtitle passages and a breadcrumb for what follows', () => {
    const passages = chunkBlocks(blocks, options(1000))
    expect(passages.map((p) => [p.meta.subtype, p.content, p.breadcrumb])).toEqual([
      ['paragraph', 'Before any heading.', []],
      ['title', 'Guide', []],
      ['paragraph', 'Intro text here.', ['Guide']],
      ['subtitle', 'Install', ['Guide']],
      ['paragraph', 'Run the installer.\n\n1. download\n2. run', ['Guide', 'Install']],
      ['subtitle', 'Linux', ['Guide', 'Install']],
      ['code', '```sh\napt install x\n\nx --version\n```', ['Guide', 'Install', 'Linux']],
      ['subtitle', 'Use', ['Guide']],
      ['blockquote', '> Quoted words.', ['Guide', 'Use']],
    ])
    expect(passages.map((p) => p.meta.position)).toEqual(passages.map((_, i) => i))
    expect(passages.every((p) => p.meta.type === 'chunk' && p.meta.pageNumber === undefined)).toBe(true)
  })

  it('packs neighbours only up to the bound and never across a heading or a page', () => {
    const sentence = 'A sentence of exactly forty characters..'
    const passages = chunkBlocks(
      [
        { kind: 'page', pageNumber: 1, resetHeadings: false },
        ...Array.from({ length: 5 }, () => ({ kind: 'paragraph' as const, text: sentence })),
        { kind: 'page', pageNumber: 2, resetHeadings: false },
        { kind: 'paragraph', text: sentence },
        { kind: 'heading', level: 1, text: 'H' },
        { kind: 'paragraph', text: sentence },
      ],
      options(100),
    )
    expect(passages.map((p) => [p.content.length, p.meta.pageNumber, p.meta.subtype])).toEqual([
      [82, 1, 'paragraph'],
      [82, 1, 'paragraph'],
      [40, 1, 'paragraph'],
      [40, 2, 'paragraph'],
      [1, 2, 'title'],
      [40, 2, 'paragraph'],
    ])
  })

  it('resets the breadcrumb at a page that asks for it (slides, sheets)', () => {
    const passages = chunkBlocks(
      [
        { kind: 'page', pageNumber: 1, resetHeadings: true },
        { kind: 'heading', level: 1, text: 'Slide one' },
        { kind: 'paragraph', text: 'a' },
        { kind: 'page', pageNumber: 2, resetHeadings: true },
        { kind: 'paragraph', text: 'b' },
      ],
      options(100),
    )
    expect(passages.map((p) => [p.content, p.breadcrumb, p.meta.pageNumber])).toEqual([
      ['Slide one', [], 1],
      ['a', ['Slide one'], 1],
      ['b', [], 2],
    ])
  })

  it('splits a table by rows and repeats the Markdown header in every piece', () => {
    const rows = Array.from({ length: 30 }, (_, i) => [`item ${i}`, `${i * 3}`])
    const passages = chunkBlocks([{ kind: 'table', style: 'markdown', header: ['name', 'count'], rows }], options(120))
    expect(passages.length).toBeGreaterThan(3)
    for (const passage of passages) {
      expect(passage.meta.subtype).toBe('table')
      expect(passage.content.length).toBeLessThanOrEqual(120)
      expect(passage.content.startsWith('| name | count |\n| --- | --- |\n| item ')).toBe(true)
    }
    const bodyRows = passages.flatMap((p) => p.content.split('\n').slice(2))
    expect(bodyRows).toEqual(rows.map(([name, count]) => `| ${name} | ${count} |`))
  })

  it('renders record tables as header: value lines, leaving empty cells out', () => {
    const passages = chunkBlocks(
      [{ kind: 'table', style: 'records', header: ['city', 'country', 'note'], rows: [['Paris', 'France', ''], ['Oslo', 'Norway', 'cold | dark']] }],
      options(1000),
    )
    expect(passages.map((p) => p.content)).toEqual(['city: Paris; country: France\ncity: Oslo; country: Norway; note: cold | dark'])
  })

  it('splits long code by lines inside fences, each piece within the bound', () => {
    const code = Array.from({ length: 80 }, (_, i) => `line_${i} = compute(${i})`).join('\n')
    const passages = chunkBlocks([{ kind: 'code', text: code, language: 'py' }], options(200))
    expect(passages.length).toBeGreaterThan(5)
    const lines: string[] = []
    for (const passage of passages) {
      expect(passage.content.length).toBeLessThanOrEqual(200)
      expect(passage.content.startsWith('```py\n') && passage.content.endsWith('\n```')).toBe(true)
      lines.push(...passage.content.split('\n').slice(1, -1))
    }
    expect(lines.join('\n')).toBe(code)
  })

  it('skips blocks with no text and never emits an empty passage', () => {
    const passages = chunkBlocks(
      [
        { kind: 'paragraph', text: ' \n\t ' },
        { kind: 'heading', level: 2, text: '  ' },
        { kind: 'list', items: ['', ' '], ordered: false },
        { kind: 'table', style: 'markdown', header: undefined, rows: [] },
        { kind: 'code', text: '\n\n' },
      ],
      options(100),
    )
    expect(passages).toEqual([])
  })

  it('fails with TOO_LARGE when the output passes maxOutputChars', () => {
    const blocks = Array.from({ length: 100 }, () => ({ kind: 'paragraph' as const, text: 'x'.repeat(90) }))
    expect(() => chunkBlocks(blocks, { maximumChunkLength: 100, maxOutputChars: 5000, key: 'big.txt' })).toThrowError(
      expect.objectContaining({ code: 'TOO_LARGE', message: expect.stringContaining('big.txt') }) as unknown as Error,
    )
    expect(() => chunkBlocks(blocks, { maximumChunkLength: 100, maxOutputChars: 5000, key: 'big.txt' })).toThrow(ExtractionError)
  })
})

describe('chunkBlocks: long paragraphs', () => {
  it('splits at sentence boundaries and repeats the last sentences of a piece at the start of the next (≤ 15%)', () => {
    const sentences = Array.from({ length: 60 }, (_, i) => `Fact ${i} is short.`)
    const passages = chunkBlocks([{ kind: 'paragraph', text: sentences.join(' ') }], options(400))
    expect(passages.length).toBeGreaterThan(2)
    for (let i = 0; i < passages.length; i++) {
      const content = passages[i]!.content
      expect(content.length).toBeLessThanOrEqual(400)
      expect(content).toMatch(/^Fact \d+ is short\.( Fact \d+ is short\.)*$/)
      if (i === 0) continue
      const previous = passages[i - 1]!.content
      const first = Number(/^Fact (\d+)/.exec(content)![1])
      const lastOfPrevious = Number(/Fact (\d+) is short\.$/.exec(previous)![1])
      const repeated = lastOfPrevious - first + 1
      expect(repeated).toBeGreaterThanOrEqual(1)
      const overlapText = sentences.slice(first, lastOfPrevious + 1).join(' ')
      expect(previous.endsWith(overlapText)).toBe(true)
      expect(overlapText.length).toBeLessThanOrEqual(400 * 0.15)
    }
    const covered = new Set(passages.flatMap((p) => [...p.content.matchAll(/Fact (\d+)/g)].map((m) => Number(m[1]))))
    expect(covered.size).toBe(60)
  })
})

function words(text: string): string[] {
  return text.split(/\s+/).filter((word) => word !== '')
}

describe('chunkBlocks: bounds, property-style', () => {
  for (const max of [100, 137, 500, 1000, 2500, 5000]) {
    it(`keeps every passage within ${max} characters, non-empty and normalized, and loses no word`, () => {
      for (let seed = 1; seed <= 8; seed++) {
        const random = seededRandom(seed * 7919 + max)
        const make = textMaker(random)
        const blocks: DocumentBlock[] = []
        const expectedWords: string[] = []
        for (let i = 0; i < 40; i++) {
          const roll = random()
          if (roll < 0.1) blocks.push({ kind: 'page', pageNumber: i + 1, resetHeadings: random() < 0.5 })
          else if (roll < 0.25) blocks.push({ kind: 'heading', level: make.int(1, 4), text: make.sentence() })
          else if (roll < 0.35) blocks.push({ kind: 'list', items: Array.from({ length: make.int(1, 30) }, make.sentence), ordered: random() < 0.5 })
          else if (roll < 0.42) {
            const width = make.int(1, 6)
            const row = () => Array.from({ length: width }, make.word)
            blocks.push({ kind: 'table', style: random() < 0.5 ? 'records' : 'markdown', header: row(), rows: Array.from({ length: make.int(1, 40) }, row) })
          } else if (roll < 0.47) blocks.push({ kind: 'code', text: Array.from({ length: make.int(1, 50) }, make.sentence).join('\n') })
          else if (roll < 0.55) blocks.push({ kind: 'blockquote', text: make.paragraph() })
          else {
            const text = make.paragraph()
            blocks.push({ kind: 'paragraph', text })
            expectedWords.push(...words(text))
          }
        }
        const passages: ExtractedPassage[] = chunkBlocks(blocks, options(max))
        expect(passages.length).toBeGreaterThan(0)
        passages.forEach((passage, index) => {
          expect(passage.content.length, `seed ${seed} passage ${index}`).toBeLessThanOrEqual(max)
          expect(passage.content.trim()).toBe(passage.content)
          expect(passage.content).not.toBe('')
          expect(passage.meta.position).toBe(index)
          if (passage.meta.subtype === 'paragraph') expect(passage.content).not.toMatch(/ {2}|\t| \n/)
        })
        // Every word of every paragraph appears in a passage (hard-sliced long words aside).
        const output = passages.map((p) => p.content).join('\n')
        for (const word of expectedWords) if (word.length < max * 0.85 - 1) expect(output.includes(word), `seed ${seed} word ${word}`).toBe(true)
      }
    })
  }
})
