import { HTMLElement, type Node, NodeType, parse } from 'node-html-parser'
import type { DocumentBlock } from '../chunking/document-block.js'
import { ExtractionError } from '../extraction-error.js'
import { charsetOf, decodeText } from '../text/decode-text.js'
import type { ReadContext } from './format-reader.js'
import { htmlNestingDepth } from './html-nesting.js'

/** Elements that are not the page's main text: scripts, chrome around the content, hidden templates. */
const dropped = new Set(['script', 'style', 'noscript', 'template', 'nav', 'header', 'footer', 'aside', 'head', 'svg', 'iframe', 'object', 'canvas', 'button', 'select', 'dialog'])
/** Elements that start a block of their own; everything else is inline text of the block around it. */
const blockLevel = new Set([
  'address', 'article', 'body', 'center', 'dd', 'details', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'form',
  'hr', 'html', 'li', 'main', 'section', 'summary', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'ul', 'ol', 'menu', 'table', 'pre', 'blockquote', 'img', 'caption',
])

/**
 * HTML (and DOCX, which mammoth turns into HTML): the main text. Inside `<main>` when the page has one (else
 * `<article>` when it has exactly one, else `<body>`); scripts, styles, navigation, header, footer, asides,
 * templates and `hidden` elements are dropped. Headings, paragraphs, lists (nested items flattened in order),
 * tables (first row or `<thead>` as header), `<pre>` code, blockquotes and image alt texts become blocks; loose
 * text between blocks becomes paragraphs. Nesting deeper than `limits.maxHtmlDepth` is `TOO_DEEP`, checked before
 * parsing.
 *
 * @example
 * ```ts
 * readHtml(new TextEncoder().encode('<h1>Title</h1><p>Hello</p>'), context) // heading + paragraph blocks
 * ```
 */
export function readHtml(bytes: Uint8Array, context: ReadContext): DocumentBlock[] {
  return htmlToBlocks(decodeText(bytes, context.key, charsetOf(context.contentType)), context)
}

/**
 * The blocks of an HTML string (see `readHtml`).
 *
 * @example
 * ```ts
 * htmlToBlocks('<ul><li>a</li></ul>', context) // [{ kind: 'list', items: ['a'], ordered: false }]
 * ```
 */
export function htmlToBlocks(html: string, context: ReadContext): DocumentBlock[] {
  const depth = htmlNestingDepth(html)
  if (depth > context.limits.maxHtmlDepth) {
    throw new ExtractionError('TOO_DEEP', `${context.key} nests HTML elements ${depth} deep, more than the ${context.limits.maxHtmlDepth} allowed`)
  }
  const root = parse(html, { comment: false, blockTextElements: { script: false, style: false, noscript: false, template: false } })
  const walker = new BlockWalker()
  walker.walk(mainElement(root))
  walker.flushInline()
  return walker.blocks
}

function mainElement(root: HTMLElement): HTMLElement {
  const main = root.querySelector('main')
  if (main) return main
  const articles = root.querySelectorAll('article')
  if (articles.length === 1) return articles[0]!
  return root.querySelector('body') ?? root
}

function tagOf(node: Node): string | undefined {
  return node instanceof HTMLElement ? node.rawTagName?.toLowerCase() : undefined
}

function isDropped(element: HTMLElement, tag: string): boolean {
  return dropped.has(tag) || element.hasAttribute('hidden') || element.getAttribute('aria-hidden') === 'true'
}

class BlockWalker {
  readonly blocks: DocumentBlock[] = []
  private inline: string[] = []

  walk(element: HTMLElement): void {
    for (const child of element.childNodes) this.visit(child)
  }

  flushInline(): void {
    const text = this.inline.join('')
    this.inline = []
    if (text.trim() !== '') this.blocks.push({ kind: 'paragraph', text })
  }

  private visit(node: Node): void {
    if (node.nodeType === NodeType.TEXT_NODE) {
      this.inline.push(node.text)
      return
    }
    if (!(node instanceof HTMLElement)) return
    const tag = tagOf(node) ?? ''
    if (isDropped(node, tag)) return
    if (!blockLevel.has(tag)) {
      if (tag === 'br') this.inline.push('\n')
      else this.inline.push(textOf(node))
      return
    }
    this.flushInline()
    const heading = /^h([1-6])$/.exec(tag)
    if (heading) this.blocks.push({ kind: 'heading', level: Number(heading[1]), text: textOf(node) })
    else if (tag === 'ul' || tag === 'ol' || tag === 'menu') this.blocks.push({ kind: 'list', items: listItems(node), ordered: tag === 'ol' })
    else if (tag === 'table') this.blocks.push(tableOf(node))
    else if (tag === 'pre') this.blocks.push({ kind: 'code', text: textOf(node), ...languageOf(node) })
    else if (tag === 'blockquote') this.blocks.push({ kind: 'blockquote', text: textOf(node) })
    else if (tag === 'img') {
      const alt = node.getAttribute('alt')?.trim()
      if (alt) this.blocks.push({ kind: 'image', text: alt })
    } else {
      this.walk(node)
      this.flushInline()
    }
  }
}

/** The visible text of an element (dropped elements left out, `<br>` as a line break). */
function textOf(element: HTMLElement): string {
  const parts: string[] = []
  const stack: Node[] = [element]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.nodeType === NodeType.TEXT_NODE) {
      parts.push(node.text)
      continue
    }
    if (!(node instanceof HTMLElement)) continue
    const tag = tagOf(node)
    if (node !== element && tag !== undefined && isDropped(node, tag)) continue
    if (tag === 'br') parts.push('\n')
    else if (tag === 'img' && node !== element) parts.push(node.getAttribute('alt') ?? '')
    else if (blockLevel.has(tag ?? '') && node !== element) parts.push(' ')
    for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!)
  }
  return parts.join('')
}

function languageOf(pre: HTMLElement): { language?: string } {
  const classes = `${pre.getAttribute('class') ?? ''} ${pre.querySelector('code')?.getAttribute('class') ?? ''}`
  const match = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(classes)
  return match ? { language: match[1]! } : {}
}

/** Items of a list in document order; a nested list's items follow their parent item. */
function listItems(list: HTMLElement): string[] {
  const items: string[] = []
  for (const child of list.childNodes) {
    if (!(child instanceof HTMLElement) || tagOf(child) !== 'li') continue
    const own: string[] = []
    const nested: HTMLElement[] = []
    for (const part of child.childNodes) {
      const tag = tagOf(part)
      if (tag === 'ul' || tag === 'ol') nested.push(part as HTMLElement)
      else if (part instanceof HTMLElement) {
        if (!isDropped(part, tag ?? '')) own.push(textOf(part))
      } else own.push(part.text)
    }
    items.push(own.join(' '))
    for (const list of nested) items.push(...listItems(list))
  }
  return items
}

function tableOf(table: HTMLElement): DocumentBlock {
  let header: string[] | undefined
  const rows: string[][] = []
  for (const row of table.querySelectorAll('tr')) {
    const cells = row.childNodes.filter((cell): cell is HTMLElement => tagOf(cell) === 'td' || tagOf(cell) === 'th')
    if (cells.length === 0) continue
    const texts = cells.map(textOf)
    const inHead = row.parentNode !== null && tagOf(row.parentNode) === 'thead'
    if (header === undefined && rows.length === 0 && (inHead || cells.every((cell) => tagOf(cell) === 'th'))) header = texts
    else rows.push(texts)
  }
  return { kind: 'table', style: 'markdown', header, rows }
}
