import type { DocumentBlock } from '../chunking/document-block.js'
import { ExtractionError } from '../extraction-error.js'
import { readZip } from '../zip/read-zip.js'
import type { ReadContext } from './format-reader.js'
import { xmlAttribute, xmlEvents } from './xml-events.js'

/**
 * PPTX: each slide is a page (in the presentation's order), its title placeholder a level-1 heading (subtitle:
 * level 2), the paragraphs of its other shapes paragraphs, its tables tables. Speaker notes, pictures, charts and
 * layouts are not read. More slides than `limits.maxPages` is `TOO_MANY_PAGES`.
 *
 * @example
 * ```ts
 * readPptx(bytes, context) // [{ kind: 'page', pageNumber: 1, ... }, { kind: 'heading', level: 1, text: 'Welcome' }, ...]
 * ```
 */
export function readPptx(bytes: Uint8Array, context: ReadContext): DocumentBlock[] {
  const { key, limits } = context
  const entries = readZip(bytes, key, { maxEntries: limits.maxZipEntries, maxInflatedBytes: limits.maxInflatedBytes }, (name) =>
    /^ppt\/(slides\/slide\d+\.xml|presentation\.xml|_rels\/presentation\.xml\.rels)$/.test(name),
  )
  const slides = slideOrder(entries)
  if (slides.length === 0) throw new ExtractionError('CORRUPT_DOCUMENT', `${key} is not a PowerPoint presentation: it has no slides (ppt/slides/slideN.xml)`)
  if (slides.length > limits.maxPages) {
    throw new ExtractionError('TOO_MANY_PAGES', `${key} has ${slides.length} slides, more than the ${limits.maxPages} allowed`)
  }
  const blocks: DocumentBlock[] = []
  const decoder = new TextDecoder()
  slides.forEach((name, index) => {
    blocks.push({ kind: 'page', pageNumber: index + 1, resetHeadings: true })
    blocks.push(...slideBlocks(decoder.decode(entries.get(name))))
  })
  return blocks
}

/** Slide parts in presentation order (`sldIdLst` through the relationships), else by their number. */
function slideOrder(entries: Map<string, Uint8Array>): string[] {
  const present = [...entries.keys()].filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
  const byNumber = present.sort((a, b) => Number(/(\d+)\.xml$/.exec(a)![1]) - Number(/(\d+)\.xml$/.exec(b)![1]))
  const presentation = entries.get('ppt/presentation.xml')
  const rels = entries.get('ppt/_rels/presentation.xml.rels')
  if (!presentation || !rels) return byNumber
  const decoder = new TextDecoder()
  const targets = new Map<string, string>()
  for (const event of xmlEvents(decoder.decode(rels))) {
    if (event.type !== 'open' || !event.name.endsWith('Relationship')) continue
    const id = xmlAttribute(event.attributes, 'Id')
    const target = xmlAttribute(event.attributes, 'Target')
    if (id && target) targets.set(id, `ppt/${target.replace(/^\/?(ppt\/)?/, '')}`)
  }
  const ordered: string[] = []
  for (const event of xmlEvents(decoder.decode(presentation))) {
    if (event.type !== 'open' || event.name !== 'p:sldId') continue
    const target = targets.get(xmlAttribute(event.attributes, 'r:id') ?? '')
    if (target && entries.has(target) && !ordered.includes(target)) ordered.push(target)
  }
  return ordered.length > 0 ? ordered : byNumber
}

interface Shape {
  role: 'title' | 'subtitle' | 'body'
  paragraphs: string[]
}

function slideBlocks(xml: string): DocumentBlock[] {
  const blocks: DocumentBlock[] = []
  let shape: Shape | undefined
  let paragraph: string[] | undefined
  let inText = false
  let table: string[][] | undefined
  let row: string[] | undefined
  let cell: string[] | undefined
  for (const event of xmlEvents(xml)) {
    if (event.type === 'text') {
      if (inText && paragraph) paragraph.push(event.text)
      continue
    }
    const name = event.name
    if (event.type === 'open') {
      if (name === 'p:sp') shape = { role: 'body', paragraphs: [] }
      else if (name === 'p:ph' && shape) {
        const type = xmlAttribute(event.attributes, 'type')
        if (type === 'title' || type === 'ctrTitle') shape.role = 'title'
        else if (type === 'subTitle') shape.role = 'subtitle'
      } else if (name === 'a:p') paragraph = event.selfClosing ? undefined : []
      else if (name === 'a:t') inText = !event.selfClosing
      else if ((name === 'a:br' || name === 'a:tab') && paragraph) paragraph.push(' ')
      else if (name === 'a:tbl') table = []
      else if (name === 'a:tr' && table) row = []
      else if (name === 'a:tc' && row) cell = []
      continue
    }
    if (name === 'a:t') inText = false
    else if (name === 'a:p' && paragraph) {
      const text = paragraph.join('')
      paragraph = undefined
      if (cell) cell.push(text)
      else if (shape) shape.paragraphs.push(text)
    } else if (name === 'a:tc' && row && cell) {
      row.push(cell.join(' '))
      cell = undefined
    } else if (name === 'a:tr' && table && row) {
      table.push(row)
      row = undefined
    } else if (name === 'a:tbl' && table) {
      const [header, ...rows] = table
      if (header) blocks.push({ kind: 'table', style: 'markdown', header, rows })
      table = undefined
    } else if (name === 'p:sp' && shape) {
      blocks.push(...shapeBlocks(shape))
      shape = undefined
    }
  }
  return blocks
}

function shapeBlocks(shape: Shape): DocumentBlock[] {
  const texts = shape.paragraphs.filter((text) => text.trim() !== '')
  if (texts.length === 0) return []
  if (shape.role === 'title') return [{ kind: 'heading', level: 1, text: texts.join(' ') }]
  if (shape.role === 'subtitle') return [{ kind: 'heading', level: 2, text: texts.join(' ') }]
  return texts.map((text) => ({ kind: 'paragraph', text }))
}
