import { filesLimits } from 'botshelf/api'
import type { PassageSubtype, StoredPassageType } from '../../store/index.js'
import { fileIndexingOptions } from './options/index.js'

/** What {@link embeddingTexts} needs of a passage: its text, kind and the headings above it. */
export interface EmbeddablePassage {
  content: string
  /** `chunk` when absent; `summary` and `image` passages stand alone and are embedded as they are. */
  type?: StoredPassageType
  /** Headings (`title`, `subtitle`) neither take nor give neighbours: they open a section. */
  subtype?: PassageSubtype
  breadcrumb: readonly string[]
}

/** How a file's passages are embedded: `chunking.embedBreadcrumb` and `chunking.embeddedContextLevels`. */
export interface EmbeddingContext {
  /** Embed each passage under its headings (`Refunds > Timing`, one paragraph before the text). */
  breadcrumb: boolean
  /** Neighbouring passages of the same section embedded with each one, on each side (0 to 3). */
  contextLevels: number
}

/**
 * The embedding context a file asked for with its `indexing.configuration` (`chunking.embedBreadcrumb`,
 * `chunking.embeddedContextLevels`). By default a passage is embedded under its headings and without neighbours.
 *
 * @example
 * ```ts
 * embeddingContextOf({ indexingConfiguration: null }) // { breadcrumb: true, contextLevels: 0 }
 * embeddingContextOf({ indexingConfiguration: { chunking: { embedBreadcrumb: false } } }) // { breadcrumb: false, contextLevels: 0 }
 * ```
 */
export function embeddingContextOf(file: { indexingConfiguration: Record<string, unknown> | null }): EmbeddingContext {
  const options = fileIndexingOptions(file.indexingConfiguration, filesLimits.chunkLengthDefault)
  return { breadcrumb: options.embedBreadcrumb, contextLevels: options.embeddedContextLevels }
}

/**
 * The longest text a passage is embedded from when neighbours are added, in characters (about 2,000 tokens, well
 * under the input limit of common embedding APIs): the passage itself always goes in whole; a neighbour that would
 * pass the bound is left out, and so are those beyond it.
 */
export const EMBEDDING_TEXT_MAX_LENGTH = 8_000

const sameSection = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((heading, index) => heading === b[index])
const standsAlone = (passage: EmbeddablePassage) => passage.type === 'summary' || passage.type === 'image' || passage.subtype === 'title' || passage.subtype === 'subtitle'

/**
 * The text each passage of a document is embedded from (decision 1458). With neither option it is the passage's
 * own text. `breadcrumb` puts the headings above the passage on a line before it, so a passage under "Refunds" is near
 * a question about refunds even when its own words never say so. `contextLevels: n` adds up to `n` passages before
 * and `n` after it from the same section (same headings, no heading between), nearest first, in document order,
 * within {@link EMBEDDING_TEXT_MAX_LENGTH}. Summaries and image captions are embedded as they are; a heading gets
 * its breadcrumb and no neighbours. What is stored and
 * returned is still the passage's own text: only its vector changes.
 *
 * @example
 * ```ts
 * embeddingTexts(
 *   [{ content: 'Refunds take 14 days.', breadcrumb: ['Refunds'] }, { content: 'Ask support.', breadcrumb: ['Refunds'] }],
 *   { breadcrumb: true, contextLevels: 1 },
 * )
 * // ['Refunds\n\nRefunds take 14 days.\n\nAsk support.', 'Refunds\n\nRefunds take 14 days.\n\nAsk support.']
 * ```
 */
export function embeddingTexts(passages: readonly EmbeddablePassage[], context: EmbeddingContext): string[] {
  return passages.map((passage, index) => {
    if (passage.type === 'summary' || passage.type === 'image') return passage.content
    const crumb = context.breadcrumb && passage.breadcrumb.length > 0 ? passage.breadcrumb.join(' > ') : undefined
    const before: string[] = []
    const after: string[] = []
    let length = passage.content.length + (crumb ? crumb.length + 2 : 0)
    const fits = (neighbour: EmbeddablePassage | undefined): neighbour is EmbeddablePassage => {
      if (!neighbour || standsAlone(neighbour) || !sameSection(neighbour.breadcrumb, passage.breadcrumb)) return false
      if (length + neighbour.content.length + 2 > EMBEDDING_TEXT_MAX_LENGTH) return false
      length += neighbour.content.length + 2
      return true
    }
    // Nearest first on both sides; a side ends at its section's edge or at the bound.
    let openBefore = true
    let openAfter = true
    const levels = standsAlone(passage) ? 0 : context.contextLevels
    for (let level = 1; level <= levels && (openBefore || openAfter); level += 1) {
      if (openBefore) {
        const neighbour = passages[index - level]
        if (fits(neighbour)) before.unshift(neighbour.content)
        else openBefore = false
      }
      if (openAfter) {
        const neighbour = passages[index + level]
        if (fits(neighbour)) after.push(neighbour.content)
        else openAfter = false
      }
    }
    if (!crumb && before.length === 0 && after.length === 0) return passage.content
    return [...(crumb ? [crumb] : []), ...before, passage.content, ...after].join('\n\n')
  })
}
