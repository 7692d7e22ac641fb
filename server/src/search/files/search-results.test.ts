import { describe, expect, it } from 'vitest'
import type { FileRecord, PassageRecord, SearchHit } from '../../store/index.js'
import { shapeResults, type ResultShape } from './search-results.js'

const file = { id: 'file_1', key: 'guide.md', contentType: 'text/markdown', metadata: {}, tags: { a: 'b' }, createdAt: 'c', updatedAt: 'u' } as unknown as FileRecord
const passages: PassageRecord[] = ['# Guide', 'one', 'two', 'three', 'four', 'five'].map((content, position) => ({
  id: `p${position}`,
  fileId: 'file_1',
  botId: 'bot',
  position,
  content,
  type: 'chunk',
  subtype: position === 0 ? 'title' : 'paragraph',
  pageNumber: null,
  breadcrumb: position === 0 ? [] : ['Guide'],
}))
const around = async (_fileId: string, from: number, to: number) => passages.filter((p) => p.position >= from && p.position <= to)
const hit = (position: number, score: number): SearchHit => ({ passage: passages[position]!, score })
const shape = (extra: Partial<ResultShape>): ResultShape => ({ contextDepth: 1, withContext: false, includeBreadcrumb: false, consolidate: false, ...extra })
const files = new Map([['file_1', file]])

describe('shapeResults', () => {
  it('plain results carry no context; includeBreadcrumb prefixes the content', async () => {
    const [plain] = await shapeResults([hit(2, 0.5)], files, shape({}), around)
    expect(plain).toEqual({ content: 'two', score: 0.5, meta: { type: 'chunk', subtype: 'paragraph', position: 2 }, file: { id: 'file_1', key: 'guide.md', contentType: 'text/markdown', metadata: {}, tags: { a: 'b' }, createdAt: 'c', updatedAt: 'u' } })
    const [crumb] = await shapeResults([hit(2, 0.5)], files, shape({ includeBreadcrumb: true }), around)
    expect(crumb!.content).toBe('Guide\n\ntwo')
  })

  it('withContext lists neighbours by offset, clipped at the start of the document; depth 0 gives the hit alone', async () => {
    const [first] = await shapeResults([hit(0, 1)], files, shape({ withContext: true, contextDepth: 2 }), around)
    expect(first!.context!.map((entry) => [entry.type, entry.offset])).toEqual([['current', 0], ['subsequent', 1], ['subsequent', 2]])
    const [alone] = await shapeResults([hit(3, 1)], files, shape({ withContext: true, contextDepth: 0 }), around)
    expect(alone!.context).toEqual([{ id: 'p3', text: 'three', offset: 0, type: 'current' }])
  })

  it('consolidate merges touching ranges of one file, keeps distant ones apart, and orders by best score', async () => {
    const merged = await shapeResults([hit(1, 0.2), hit(5, 0.9), hit(2, 0.4)], files, shape({ consolidate: true, contextDepth: 0 }), around)
    expect(merged.map((r) => [r.content, r.score, r.meta.type, r.meta.position])).toEqual([
      ['five', 0.9, 'consolidated', 5],
      ['one\n\ntwo', 0.4, 'consolidated', 1],
    ])
    const widened = await shapeResults([hit(1, 0.2), hit(4, 0.9)], files, shape({ consolidate: true, contextDepth: 1 }), around)
    expect(widened).toHaveLength(1)
    expect(widened[0]!.content).toBe('# Guide\n\none\n\ntwo\n\nthree\n\nfour\n\nfive')
  })

  it('drops hits whose file the caller cannot see', async () => {
    expect(await shapeResults([hit(1, 1)], new Map(), shape({}), around)).toEqual([])
  })
})
