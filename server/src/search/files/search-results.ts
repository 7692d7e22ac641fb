import type { SearchPassage } from 'botshelf/api'
import type { FileRecord, PassageRecord, SearchHit } from '../../store/index.js'
import { passageMeta } from './passage-view.js'

/** Reads the passages of a file with positions in `[from, to]`. */
export type PassagesAround = (fileId: string, from: number, to: number) => Promise<PassageRecord[]>

/** How `searchFiles` shapes its results (already validated wire options). */
export interface ResultShape {
  contextDepth: number
  withContext: boolean
  includeBreadcrumb: boolean
  consolidate: boolean
}

type WireContext = NonNullable<SearchPassage['context']>

/**
 * The `file` of a search result: the fields the wire names, nothing else.
 *
 * @example
 * ```ts
 * resultFile(record) // { id, key, contentType, metadata, tags, createdAt, updatedAt }
 * ```
 */
export function resultFile(file: FileRecord): SearchPassage['file'] {
  return { id: file.id, key: file.key, contentType: file.contentType, metadata: file.metadata, tags: file.tags, createdAt: file.createdAt, updatedAt: file.updatedAt }
}

function breadcrumbText(passage: PassageRecord): string | undefined {
  return passage.breadcrumb.length > 0 ? passage.breadcrumb.join(' > ') : undefined
}

/**
 * Search results in rank order. Plain: one result per hit, its content prefixed with its breadcrumb line when
 * `includeBreadcrumb`. With `withContext`: the hit's `context` lists the breadcrumb (when asked), up to
 * `contextDepth` passages before and after (offsets relative to the hit) and the hit itself. With `consolidate`:
 * each hit grows by `contextDepth` passages on each side, overlapping or touching ranges of one file merge into one
 * result (its score the best of its hits, its content the passages in document order), and no context is sent.
 *
 * @example
 * ```ts
 * const passages = await shapeResults(hits, files, { contextDepth: 1, withContext: true, includeBreadcrumb: false, consolidate: false }, around)
 * ```
 */
export async function shapeResults(
  hits: ReadonlyArray<SearchHit>,
  files: ReadonlyMap<string, FileRecord>,
  shape: ResultShape,
  around: PassagesAround,
): Promise<SearchPassage[]> {
  const visible = hits.filter((hit) => files.has(hit.passage.fileId))
  if (shape.consolidate) return consolidate(visible, files, shape, around)
  const results: SearchPassage[] = []
  for (const hit of visible) {
    const passage = hit.passage
    const file = files.get(passage.fileId)!
    const crumb = shape.includeBreadcrumb ? breadcrumbText(passage) : undefined
    const result: SearchPassage = {
      content: crumb && !shape.withContext ? `${crumb}\n\n${passage.content}` : passage.content,
      score: hit.score,
      meta: passageMeta(passage),
      file: resultFile(file),
    }
    if (shape.withContext) {
      const context: WireContext = []
      if (crumb) context.push({ type: 'breadcrumb', text: crumb })
      const neighbours = shape.contextDepth > 0 ? await around(passage.fileId, passage.position - shape.contextDepth, passage.position + shape.contextDepth) : [passage]
      for (const neighbour of neighbours) {
        const offset = neighbour.position - passage.position
        context.push({ id: neighbour.id, text: neighbour.content, offset, type: offset < 0 ? 'preceding' : offset > 0 ? 'subsequent' : 'current' })
      }
      if (!neighbours.some((neighbour) => neighbour.id === passage.id)) context.push({ id: passage.id, text: passage.content, offset: 0, type: 'current' })
      result.context = context
    }
    results.push(result)
  }
  return results
}

async function consolidate(hits: ReadonlyArray<SearchHit>, files: ReadonlyMap<string, FileRecord>, shape: ResultShape, around: PassagesAround): Promise<SearchPassage[]> {
  const byFile = new Map<string, SearchHit[]>()
  for (const hit of hits) byFile.set(hit.passage.fileId, [...(byFile.get(hit.passage.fileId) ?? []), hit])
  const merged: SearchPassage[] = []
  for (const [fileId, fileHits] of byFile) {
    const ranges = fileHits
      .map((hit) => ({ from: Math.max(0, hit.passage.position - shape.contextDepth), to: hit.passage.position + shape.contextDepth, score: hit.score }))
      .sort((a, b) => a.from - b.from)
    const groups: Array<{ from: number; to: number; score: number }> = []
    for (const range of ranges) {
      const last = groups[groups.length - 1]
      if (last && range.from <= last.to + 1) {
        last.to = Math.max(last.to, range.to)
        last.score = Math.max(last.score, range.score)
      } else groups.push({ ...range })
    }
    for (const group of groups) {
      const passages = await around(fileId, group.from, group.to)
      if (passages.length === 0) continue
      const first = passages[0]!
      const crumb = shape.includeBreadcrumb ? breadcrumbText(first) : undefined
      const content = passages.map((passage) => passage.content).join('\n\n')
      merged.push({
        content: crumb ? `${crumb}\n\n${content}` : content,
        score: group.score,
        meta: { ...passageMeta(first), type: 'consolidated' },
        file: resultFile(files.get(fileId)!),
      })
    }
  }
  return merged.sort((a, b) => b.score - a.score)
}
