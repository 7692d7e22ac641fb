import { crc32, deflateRawSync } from 'node:zlib'
import { strToU8, Zip, ZipPassThrough, type ZipInputFile } from 'fflate'
import { contentTypes, type GeneratedDocument } from './generated-document.js'

/**
 * A zip bomb shaped like an OOXML document: its main part is `inflatedBytes` of zeros (DEFLATE shrinks them about
 * 1000×), so a reader that trusts the archive would allocate all of it. The zeros are deflated by node:zlib, ~4×
 * faster than fflate's JavaScript deflate (150 MB: ~0.6 s against ~2.6 s), and handed to fflate's archive as a
 * part already compressed.
 */
export function zipBomb(format: 'docx' | 'pptx' | 'xlsx', inflatedBytes = 150 * 1024 * 1024): GeneratedDocument {
  const mainPart = { docx: 'word/document.xml', pptx: 'ppt/slides/slide1.xml', xlsx: 'xl/workbook.xml' }[format]
  const zeros = new Uint8Array(inflatedBytes)
  const chunks: Uint8Array[] = []
  const archive = new Zip((error, chunk) => {
    if (error) throw error
    chunks.push(chunk)
  })
  const types = new ZipPassThrough('[Content_Types].xml')
  archive.add(types)
  types.push(strToU8('<Types/>'), true)
  const main: ZipInputFile = { filename: mainPart, size: inflatedBytes, crc: crc32(zeros), compression: 8 }
  archive.add(main)
  main.ondata!(null, deflateRawSync(zeros, { level: 9 }), true)
  archive.end()
  return { content: Buffer.concat(chunks), contentType: contentTypes[format], key: `bomb.${format}` }
}

/** `depth` nested `<div>`s, closed or not. */
export function deeplyNestedHtml(depth: number, closed = true): GeneratedDocument {
  const html = `<html><body>${'<div>'.repeat(depth)}deep text${closed ? '</div>'.repeat(depth) : ''}</body></html>`
  return { content: strToU8(html), contentType: contentTypes.html, key: 'deep.html' }
}

/** Reproducible random bytes (a seeded xorshift), labelled as `contentType`. */
export function randomBytes(size: number, seed: number, contentType: string, key: string): GeneratedDocument {
  const bytes = new Uint8Array(size)
  let state = seed >>> 0 || 1
  for (let i = 0; i < size; i++) {
    state ^= state << 13
    state >>>= 0
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    bytes[i] = state & 0xff
  }
  return { content: bytes, contentType, key }
}

/** The first `fraction` of a document's bytes. */
export function truncated(document: GeneratedDocument, fraction = 0.5): GeneratedDocument {
  return { ...document, content: document.content.slice(0, Math.floor(document.content.length * fraction)), key: `truncated-${document.key}` }
}
