import { ExtractionError } from '../extraction-error.js'
import type { ExtractedPassage, PassageSubtype } from '../passage.js'
import type { DocumentBlock } from './document-block.js'
import { normalizeCode, normalizeInline } from './normalize-whitespace.js'
import { renderTable } from './render-table.js'
import { hardSlices, splitWithOverlap } from './split-text.js'

/** How blocks become passages. */
export interface ChunkOptions {
  /** Longest passage, in characters, e.g. `{ maximumChunkLength: 1000 }`. */
  maximumChunkLength: number
  /** Most characters all passages together may hold (`TOO_LARGE` beyond), e.g. `{ maxOutputChars: 20_000_000 }`. */
  maxOutputChars: number
  /** The document's key, named in errors, e.g. `{ key: 'docs/guide.pdf' }`. */
  key: string
}

/** Longest heading kept in a breadcrumb entry; longer ones are cut with `…` (the passage itself keeps it all). */
const MAX_CRUMB_LENGTH = 200

interface Heading {
  level: number
  text: string
}

/**
 * Turns a document's blocks into passages of at most `maximumChunkLength` characters, following its structure:
 * headings open sections (and form the breadcrumb) and are passages of their own (`title` for level 1,
 * `subtitle` below); neighbouring paragraphs, lists, blockquotes and image texts of one section and page are
 * packed together up to the bound (the passage takes the subtype with the most text); a longer one is split at
 * sentences with an overlap (`splitWithOverlap`); tables are split by rows, each piece repeating the header; code
 * is split by lines; nothing crosses a page. Whitespace is normalized and no passage is empty.
 *
 * @example
 * ```ts
 * chunkBlocks([{ kind: 'heading', level: 1, text: 'Intro' }, { kind: 'paragraph', text: 'Hello  world.' }], { maximumChunkLength: 1000, maxOutputChars: 1e6, key: 'a.md' })
 * // [{ content: 'Intro', meta: { subtype: 'title', ... } }, { content: 'Hello world.', breadcrumb: ['Intro'], ... }]
 * ```
 */
export function chunkBlocks(blocks: Iterable<DocumentBlock>, options: ChunkOptions): ExtractedPassage[] {
  const chunker = new Chunker(options)
  for (const block of blocks) chunker.add(block)
  return chunker.finish()
}

class Chunker {
  private readonly max: number
  private readonly passages: ExtractedPassage[] = []
  private headings: Heading[] = []
  private breadcrumb: string[] = []
  private pageNumber: number | undefined
  private outputChars = 0
  /** Packed text blocks waiting to become one passage. */
  private pending: string[] = []
  private pendingLength = 0
  private pendingSubtypes = new Map<PassageSubtype, number>()

  constructor(private readonly options: ChunkOptions) {
    this.max = options.maximumChunkLength
  }

  add(block: DocumentBlock): void {
    switch (block.kind) {
      case 'page':
        this.flush()
        this.pageNumber = block.pageNumber
        if (block.resetHeadings) this.setHeadings([])
        return
      case 'break':
        return this.flush()
      case 'heading':
        return this.addHeading(block.level, normalizeInline(block.text))
      case 'paragraph':
        return this.addText(normalizeInline(block.text), 'paragraph')
      case 'image':
        return this.addText(normalizeInline(block.text), 'image')
      case 'blockquote':
        return this.addBlockquote(normalizeInline(block.text))
      case 'list':
        return this.addList(block.items, block.ordered)
      case 'table':
        return this.addTable(block)
      case 'code':
        return this.addCode(normalizeCode(block.text), block.language)
    }
  }

  finish(): ExtractedPassage[] {
    this.flush()
    return this.passages
  }

  private addHeading(level: number, text: string): void {
    if (text === '') return
    this.flush()
    const outer = this.headings.filter((heading) => heading.level < level)
    this.setHeadings(outer)
    const subtype = level <= 1 ? 'title' : 'subtitle'
    for (const piece of splitWithOverlap(text, this.max)) this.emit(piece, subtype)
    this.setHeadings([...outer, { level, text }])
  }

  private setHeadings(headings: Heading[]): void {
    this.headings = headings
    this.breadcrumb = headings.map((heading) => (heading.text.length > MAX_CRUMB_LENGTH ? `${heading.text.slice(0, MAX_CRUMB_LENGTH - 1)}…` : heading.text))
  }

  private addText(text: string, subtype: PassageSubtype): void {
    if (text === '') return
    if (text.length > this.max) {
      this.flush()
      for (const piece of splitWithOverlap(text, this.max)) this.emit(piece, subtype)
      return
    }
    this.pack(text, subtype)
  }

  private addBlockquote(text: string): void {
    if (text === '') return
    const quoted = `> ${text}`
    if (quoted.length <= this.max) return this.pack(quoted, 'blockquote')
    this.flush()
    for (const piece of splitWithOverlap(text, this.max - 2)) this.emit(`> ${piece}`, 'blockquote')
  }

  private addList(items: string[], ordered: boolean): void {
    const lines = items.map(normalizeInline).filter((item) => item !== '').map((item, index) => `${ordered ? `${index + 1}.` : '-'} ${item}`)
    if (lines.length === 0) return
    const whole = lines.join('\n')
    if (whole.length <= this.max) return this.pack(whole, 'list')
    this.flush()
    this.emitLines(lines, '', 'list')
  }

  private addTable(table: Parameters<typeof renderTable>[0]): void {
    const { head, rows } = renderTable(table)
    if (rows.length === 0 && head === '') return
    this.flush()
    if (rows.length === 0) return this.emitLines(head.split('\n'), '', 'table')
    // A header that leaves no room for a row is dropped from the pieces rather than breaking the bound.
    const repeated = head !== '' && head.length + 1 + 20 <= this.max ? head : ''
    this.emitLines(rows, repeated, 'table')
  }

  private addCode(code: string, language: string | undefined): void {
    if (code === '') return
    const open = `\`\`\`${language && /^[\w+#.-]{1,30}$/.test(language) ? language : ''}\n`
    const close = '\n```'
    const room = this.max - open.length - close.length
    this.flush()
    for (const piece of packLines(code.split('\n'), room)) this.emit(`${open}${piece}${close}`, 'code')
  }

  /** Lines packed into passages under `head` (repeated in each); a line too long for one is split as text. */
  private emitLines(lines: string[], head: string, subtype: PassageSubtype): void {
    const room = head === '' ? this.max : this.max - head.length - 1
    const fitted = lines.flatMap((line) => (line.length <= room ? [line] : splitWithOverlap(line, room)))
    for (const piece of packLines(fitted, room)) this.emit(head === '' ? piece : `${head}\n${piece}`, subtype)
  }

  private pack(text: string, subtype: PassageSubtype): void {
    if (this.pendingLength > 0 && this.pendingLength + 2 + text.length > this.max) this.flush()
    this.pendingLength += (this.pendingLength > 0 ? 2 : 0) + text.length
    this.pending.push(text)
    this.pendingSubtypes.set(subtype, (this.pendingSubtypes.get(subtype) ?? 0) + text.length)
  }

  private flush(): void {
    if (this.pending.length === 0) return
    let subtype: PassageSubtype = 'paragraph'
    let most = -1
    for (const [candidate, length] of this.pendingSubtypes) {
      if (length > most) {
        subtype = candidate
        most = length
      }
    }
    const content = this.pending.join('\n\n')
    this.pending = []
    this.pendingLength = 0
    this.pendingSubtypes = new Map()
    this.emit(content, subtype)
  }

  private emit(content: string, subtype: PassageSubtype): void {
    if (content.trim() === '') return
    this.outputChars += content.length
    if (this.outputChars > this.options.maxOutputChars) {
      throw new ExtractionError(
        'TOO_LARGE',
        `${this.options.key} produces more than ${this.options.maxOutputChars} characters of text, the most one document may index`,
      )
    }
    const meta: ExtractedPassage['meta'] = { type: 'chunk', subtype, position: this.passages.length }
    if (this.pageNumber !== undefined) meta.pageNumber = this.pageNumber
    this.passages.push({ content, meta, breadcrumb: [...this.breadcrumb] })
  }
}

/** Lines joined by `\n` into pieces of at most `room` characters; a longer line is sliced. */
function packLines(lines: string[], room: number): string[] {
  const pieces: string[] = []
  let current = ''
  for (const line of lines) {
    const parts = line.length <= room ? [line] : hardSlices(line, room)
    for (const part of parts) {
      if (current === '') current = part
      else if (current.length + 1 + part.length <= room) current += `\n${part}`
      else {
        pieces.push(current)
        current = part
      }
    }
  }
  if (current !== '') pieces.push(current)
  return pieces
}
