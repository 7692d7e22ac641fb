import { describe, expect, it } from 'vitest'
import { indexableFormat } from './formats.js'

describe('indexableFormat', () => {
  it('reads the content type first, ignoring parameters and case', () => {
    expect(indexableFormat('application/pdf', 'whatever.txt')).toBe('pdf')
    expect(indexableFormat('Text/HTML; charset=utf-8', 'page')).toBe('html')
    expect(indexableFormat('text/csv', 'x')).toBe('csv')
    expect(indexableFormat('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'a')).toBe('docx')
    expect(indexableFormat('application/vnd.openxmlformats-officedocument.presentationml.presentation', 'a')).toBe('pptx')
    expect(indexableFormat('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'a')).toBe('xlsx')
    expect(indexableFormat('text/markdown', 'a')).toBe('markdown')
    expect(indexableFormat('text/plain', 'a')).toBe('text')
  })

  it('falls back to the extension of the key when the content type is generic or missing', () => {
    expect(indexableFormat('application/octet-stream', 'docs/Guide.MD')).toBe('markdown')
    expect(indexableFormat('', 'sheet.xlsx')).toBe('xlsx')
    expect(indexableFormat('binary/octet-stream', 'a/b/deck.pptx')).toBe('pptx')
    expect(indexableFormat('application/octet-stream', 'page.htm')).toBe('html')
  })

  it('answers undefined for what it cannot index', () => {
    expect(indexableFormat('image/png', 'photo.pdf')).toBeUndefined()
    expect(indexableFormat('application/octet-stream', 'archive.zip')).toBeUndefined()
    expect(indexableFormat('application/octet-stream', 'no-extension')).toBeUndefined()
    expect(indexableFormat('application/octet-stream', '.hidden')).toBeUndefined()
    expect(indexableFormat('application/octet-stream', 'folder.md/file')).toBeUndefined()
  })
})
