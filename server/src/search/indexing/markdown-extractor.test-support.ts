import { BotshelfError } from 'botshelf/api'
import type { DocumentExtractor, ExtractedPassage } from './document-extractor.js'

/** What the test extractor throws for a document it cannot read (the real module's `ExtractionError` shape). */
export class TestExtractionError extends BotshelfError {
  override readonly name = 'ExtractionError'
  constructor(message: string) {
    super('InvalidPayload', 'EXTRACTION_FAILED', message)
  }
}

/**
 * A plain-text and Markdown extractor for tests: blocks separated by blank lines, `# ` a title, `## ` a subtitle,
 * breadcrumbs from them, blocks cut at `maximumChunkLength`. Any other content type is refused with a reason, and
 * content containing `EXTRACTOR-CRASH` throws a plain error (a transient failure, retried).
 *
 * @example
 * ```ts
 * createFilesFeature({ indexing: { extractor: markdownTestExtractor } })
 * ```
 */
export const markdownTestExtractor: DocumentExtractor = async (doc, { maximumChunkLength, signal }) => {
  signal.throwIfAborted()
  if (!doc.contentType.startsWith('text/')) throw new TestExtractionError(`cannot extract text from ${doc.contentType} (test extractor reads text/* only)`)
  const text = new TextDecoder().decode(doc.content)
  if (text.includes('EXTRACTOR-CRASH')) throw new Error('the test extractor crashed')
  const passages: ExtractedPassage[] = []
  let title: string | undefined
  let subtitle: string | undefined
  for (const block of text.split(/\n\s*\n/).map((part) => part.trim()).filter(Boolean)) {
    let subtype: ExtractedPassage['meta']['subtype'] = 'paragraph'
    let breadcrumb = [title, subtitle].filter((part): part is string => part !== undefined)
    if (block.startsWith('## ')) {
      subtype = 'subtitle'
      breadcrumb = title ? [title] : []
      subtitle = block.slice(3).trim()
    } else if (block.startsWith('# ')) {
      subtype = 'title'
      breadcrumb = []
      title = block.slice(2).trim()
      subtitle = undefined
    }
    for (let start = 0; start < block.length; start += maximumChunkLength) {
      passages.push({ content: block.slice(start, start + maximumChunkLength), meta: { type: 'chunk', subtype, position: passages.length }, breadcrumb })
    }
  }
  return passages
}
