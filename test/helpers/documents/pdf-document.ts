import { PDFDocument, StandardFonts, rgb } from 'pdf-lib'
import { contentTypes, type DocumentSection, type GeneratedDocument } from './generated-document.js'

/**
 * A PDF with one page per entry of `pages`: each section's heading in 20 pt bold, its paragraphs in 11 pt wrapped
 * at `lineChars`, a blank line between paragraphs. Text must be WinAnsi (Latin-1) for the standard fonts.
 */
export async function pdfDocument(pages: DocumentSection[][], options: { key?: string; lineChars?: number } = {}): Promise<GeneratedDocument> {
  const doc = await PDFDocument.create()
  const regular = await doc.embedFont(StandardFonts.Helvetica)
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  const lineChars = options.lineChars ?? 90
  for (const sections of pages) {
    const page = doc.addPage([612, 792])
    let y = 740
    for (const section of sections) {
      page.drawText(section.heading, { x: 50, y, size: 20, font: bold })
      y -= 34
      for (const paragraph of section.paragraphs) {
        for (const line of wrap(paragraph, lineChars)) {
          page.drawText(line, { x: 50, y, size: 11, font: regular })
          y -= 14
        }
        y -= 14
      }
      y -= 10
    }
  }
  return { content: await doc.save(), contentType: contentTypes.pdf, key: options.key ?? 'generated.pdf' }
}

/** One page of {@link drawingPdf}: its size in points, a red box and an optional line of text in 24 pt. */
export interface DrawnPage {
  width: number
  height: number
  box: { x: number; y: number; width: number; height: number }
  text?: string
}

/** A PDF whose pages hold a filled red box (and text), for page rendering: no text layer is needed to see them. */
export async function drawingPdf(pages: DrawnPage[], key = 'drawing.pdf'): Promise<GeneratedDocument> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (const drawn of pages) {
    const page = doc.addPage([drawn.width, drawn.height])
    page.drawRectangle({ ...drawn.box, color: rgb(1, 0, 0) })
    if (drawn.text) page.drawText(drawn.text, { x: 20, y: drawn.height - 40, size: 24, font })
  }
  return { content: await doc.save(), contentType: contentTypes.pdf, key }
}

/** A PDF of `count` empty pages (for the page cap). */
export async function blankPagesPdf(count: number, key = 'many-pages.pdf'): Promise<GeneratedDocument> {
  const doc = await PDFDocument.create()
  for (let i = 0; i < count; i++) doc.addPage([200, 200])
  return { content: await doc.save(), contentType: contentTypes.pdf, key }
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  if (line !== '') lines.push(line)
  return lines
}
