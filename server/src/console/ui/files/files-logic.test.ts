import { describe, expect, it } from 'vitest'
import { metadataPatch } from './metadata-patch.js'
import { previewKind } from './file-preview.js'
import { tagFilterOf } from './file-query.js'
import { indexText } from './index-text.js'

describe('previewKind', () => {
  it('never previews markup as a page: HTML and SVG are text; raster images, PDF; the rest none', () => {
    expect(previewKind('text/html; charset=utf-8')).toBe('text')
    expect(previewKind('image/svg+xml')).toBe('text')
    expect(previewKind('application/json')).toBe('text')
    expect(previewKind('image/png')).toBe('image')
    expect(previewKind('application/pdf')).toBe('pdf')
    expect(previewKind('application/octet-stream')).toBe('none')
    expect(previewKind('application/zip')).toBe('none')
  })
})

describe('metadataPatch', () => {
  it('sends changed and new keys, and null for removed ones', () => {
    expect(metadataPatch({ a: 1, b: { c: 2 }, d: 'x' }, { a: 1, b: { c: 3 }, e: true })).toEqual({ b: { c: 3 }, d: null, e: true })
    expect(metadataPatch({ a: 1 }, { a: 1 })).toEqual({})
  })
})

describe('tagFilterOf', () => {
  it('keeps one value bare and several as a list, and drops keys without values', () => {
    expect(tagFilterOf({})).toBeUndefined()
    expect(tagFilterOf({ kind: ['invoice'], team: ['a', 'b'], empty: [] })).toEqual({ kind: 'invoice', team: ['a', 'b'] })
  })
})

describe('indexText', () => {
  it('says whether indexing was requested and where it stands', () => {
    expect(indexText({ index: false, status: 'upload_completed' })).toBe('not requested: not searchable')
    expect(indexText({ index: true, status: 'indexing_completed' })).toBe('indexed: searchable')
    expect(indexText({ index: true, status: 'indexing_pending' })).toBe('requested: waiting to be indexed')
    expect(indexText({ index: true, status: 'indexing_failed' })).toBe('requested: indexing failed')
    expect(indexText({ index: true, status: 'upload_pending' })).toBe('requested: indexed once the upload completes')
  })
})
