import type { Nodes, Parent, Root, RootContent } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import type { DocumentBlock } from '../chunking/document-block.js'
import { ExtractionError } from '../extraction-error.js'
import { charsetOf, decodeText } from '../text/decode-text.js'
import type { ReadContext } from './format-reader.js'
import { htmlToBlocks } from './html.js'
import { markdownSections } from './markdown-sections.js'
import { pipeTable } from './pipe-table.js'

/**
 * Markdown (CommonMark): headings, paragraphs, lists (nested items flattened in order), fenced and indented code
 * with its language, blockquotes, image alt texts, pipe tables (read from the paragraph's source, since the
 * parser is CommonMark only), and embedded HTML through the HTML reader. Link targets and definitions are
 * dropped; link texts kept. Parsed in sections (`markdownSections`); a tree deeper than `limits.maxHtmlDepth` is
 * `TOO_DEEP`.
 *
 * @example
 * ```ts
 * readMarkdown(new TextEncoder().encode('# Title\n\nHello'), context) // heading + paragraph blocks
 * ```
 */
export function readMarkdown(bytes: Uint8Array, context: ReadContext): DocumentBlock[] {
  const source = decodeText(bytes, context.key, charsetOf(context.contentType))
  const blocks: DocumentBlock[] = []
  for (const section of markdownSections(source)) {
    const tree = fromMarkdown(section)
    const depth = treeDepth(tree)
    if (depth > context.limits.maxHtmlDepth) {
      throw new ExtractionError('TOO_DEEP', `${context.key} nests Markdown blocks ${depth} deep, more than the ${context.limits.maxHtmlDepth} allowed`)
    }
    for (const node of tree.children) blocksOf(node, section, context, blocks)
  }
  return blocks
}

function treeDepth(root: Root): number {
  let deepest = 0
  const stack: Array<[Nodes, number]> = [[root, 0]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (depth > deepest) deepest = depth
    if ('children' in node) for (const child of node.children) stack.push([child, depth + 1])
  }
  return deepest
}

function blocksOf(node: RootContent, source: string, context: ReadContext, into: DocumentBlock[]): void {
  switch (node.type) {
    case 'heading':
      into.push({ kind: 'heading', level: node.depth, text: inlineText(node) })
      return
    case 'paragraph': {
      const start = node.position?.start.offset
      const end = node.position?.end.offset
      const table = start !== undefined && end !== undefined ? pipeTable(source.slice(start, end)) : undefined
      if (table) into.push(table)
      else if (node.children.length === 1 && node.children[0]!.type === 'image') into.push({ kind: 'image', text: node.children[0]!.alt ?? '' })
      else into.push({ kind: 'paragraph', text: inlineText(node) })
      return
    }
    case 'list':
      into.push({ kind: 'list', items: listItems(node), ordered: node.ordered === true })
      return
    case 'code':
      into.push({ kind: 'code', text: node.value, ...(node.lang ? { language: node.lang } : {}) })
      return
    case 'blockquote':
      into.push({ kind: 'blockquote', text: node.children.map(inlineText).join(' ') })
      return
    case 'html':
      into.push(...htmlToBlocks(node.value, context))
      return
    default:
      return
  }
}

function listItems(list: Parent): string[] {
  const items: string[] = []
  for (const item of list.children) {
    if (item.type !== 'listItem') continue
    const own: string[] = []
    const nested: string[] = []
    for (const child of item.children) {
      if (child.type === 'list') nested.push(...listItems(child))
      else own.push(inlineText(child))
    }
    items.push(own.join(' '), ...nested)
  }
  return items
}

/** The text of a node: text and code values, image alt texts, line breaks; link targets left out. */
function inlineText(node: Nodes): string {
  const parts: string[] = []
  const stack: Nodes[] = [node]
  while (stack.length > 0) {
    const current = stack.pop()!
    switch (current.type) {
      case 'text':
        parts.push(current.value)
        continue
      case 'inlineCode':
        parts.push(`\`${current.value}\``)
        continue
      case 'code':
      case 'html':
        parts.push(` ${current.value} `)
        continue
      case 'image':
        parts.push(current.alt ?? '')
        continue
      case 'break':
        parts.push('\n')
        continue
      default:
        if ('children' in current) {
          if (current.type === 'paragraph' || current.type === 'heading' || current.type === 'list' || current.type === 'listItem') parts.push(' ')
          for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i]!)
        }
    }
  }
  return parts.join('')
}
