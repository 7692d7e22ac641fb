import type { DocumentBlock } from '../chunking/document-block.js'

/** One line of a PDF page: its text, the size of its largest font, and its baseline (PDF units, up is larger). */
export interface PdfLine {
  text: string
  size: number
  y: number
}

/**
 * Blocks from the lines of every page: the body size is the font size carrying the most characters; a short line
 * (≤ 200 characters) at least 1.2 × that size is a heading, its level given by the rank of its size among the
 * heading sizes (largest = 1, at most 6); consecutive body lines form a paragraph until a vertical gap of more
 * than 1.6 × the font size or a page end; a word cut by a hyphen at a line end is joined again.
 *
 * @example
 * ```ts
 * pdfBlocks([[{ text: 'Title', size: 24, y: 700 }, { text: 'Body.', size: 12, y: 660 }]]) // page, heading, paragraph
 * ```
 */
export function pdfBlocks(pages: PdfLine[][]): DocumentBlock[] {
  const weights = new Map<number, number>()
  for (const line of pages.flat()) {
    const size = Math.round(line.size)
    weights.set(size, (weights.get(size) ?? 0) + line.text.length)
  }
  let body = 0
  let heaviest = -1
  for (const [size, weight] of weights) {
    if (weight > heaviest) {
      body = size
      heaviest = weight
    }
  }
  const isHeading = (line: PdfLine) => body > 0 && Math.round(line.size) >= body * 1.2 && line.text.length <= 200
  const headingSizes = [...new Set(pages.flat().filter(isHeading).map((line) => Math.round(line.size)))].sort((a, b) => b - a)
  const level = (line: PdfLine) => Math.min(6, headingSizes.indexOf(Math.round(line.size)) + 1)

  const blocks: DocumentBlock[] = []
  pages.forEach((lines, index) => {
    blocks.push({ kind: 'page', pageNumber: index + 1, resetHeadings: false })
    let paragraph = ''
    let previous: PdfLine | undefined
    const flush = () => {
      if (paragraph.trim() !== '') blocks.push({ kind: 'paragraph', text: paragraph })
      paragraph = ''
      previous = undefined
    }
    for (const line of lines) {
      if (line.text.trim() === '') continue
      if (isHeading(line)) {
        flush()
        const last = blocks[blocks.length - 1]
        // A heading set on two lines of the same size is one heading.
        if (last?.kind === 'heading' && last.level === level(line)) last.text += ` ${line.text}`
        else blocks.push({ kind: 'heading', level: level(line), text: line.text })
        continue
      }
      if (previous && Math.abs(previous.y - line.y) > 1.6 * Math.max(previous.size, line.size)) flush()
      paragraph = paragraph === '' ? line.text : joinLines(paragraph, line.text)
      previous = line
    }
    flush()
  })
  return blocks
}

function joinLines(before: string, after: string): string {
  if (/\p{L}-$/u.test(before) && /^\p{Ll}/u.test(after)) return before.slice(0, -1) + after
  return `${before} ${after}`
}
