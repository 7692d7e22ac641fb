import { Inflate } from 'fflate'
import { ExtractionError } from '../extraction-error.js'

/** The bounds of one archive. */
export interface ZipBounds {
  /** Most entries the archive may list, e.g. `{ maxEntries: 10_000 }`. */
  maxEntries: number
  /** Most bytes all inflated entries together may hold, counted while inflating, e.g. `{ maxInflatedBytes: 1e8 }`. */
  maxInflatedBytes: number
}

/** How much compressed data is inflated per step: bounds what one step can produce (DEFLATE expands ≤ 1032×). */
const INFLATE_SLICE = 8 * 1024
const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]

/**
 * The entries of a ZIP archive (an OOXML document), read from its central directory and inflated under bounds: the
 * inflated size is counted while inflating, in small steps, and the archive is refused (`TOO_LARGE`) the moment it
 * passes `maxInflatedBytes`, so a zip bomb costs at most that much memory. Sizes the archive declares are not
 * trusted. Entries `wanted` refuses are neither inflated nor counted. A legacy or password-protected Office file
 * (an OLE container) is `UNSUPPORTED_FORMAT`; anything else that is not a readable ZIP is `CORRUPT_DOCUMENT`.
 *
 * @example
 * ```ts
 * const entries = readZip(bytes, 'deck.pptx', { maxEntries: 10_000, maxInflatedBytes: 100 << 20 }, (name) => name.startsWith('ppt/'))
 * entries.get('ppt/slides/slide1.xml')
 * ```
 */
export function readZip(bytes: Uint8Array, key: string, bounds: ZipBounds, wanted: (name: string) => boolean = () => true): Map<string, Uint8Array> {
  if (OLE_SIGNATURE.every((byte, i) => bytes[i] === byte)) {
    throw new ExtractionError('UNSUPPORTED_FORMAT', `${key} is a legacy or password-protected Office file (an OLE container), which cannot be indexed; save it as an unprotected .docx, .pptx or .xlsx`)
  }
  const corrupt = (why: string) => new ExtractionError('CORRUPT_DOCUMENT', `${key} is not a readable ZIP archive (as OOXML documents are): ${why}`)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const end = findEndOfCentralDirectory(bytes, view)
  if (end < 0) throw corrupt('no end-of-central-directory record (truncated or not a ZIP)')
  const count = view.getUint16(end + 10, true)
  const directoryOffset = view.getUint32(end + 16, true)
  if (count === 0xffff || directoryOffset === 0xffffffff) throw corrupt('ZIP64 archives are not supported')
  if (count > bounds.maxEntries) {
    throw new ExtractionError('TOO_LARGE', `${key} holds ${count} archive entries, more than the ${bounds.maxEntries} allowed`)
  }
  const entries = new Map<string, Uint8Array>()
  const budget = { left: bounds.maxInflatedBytes }
  let at = directoryOffset
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) throw corrupt(`central directory entry ${i + 1} is damaged`)
    const flags = view.getUint16(at + 8, true)
    const method = view.getUint16(at + 10, true)
    const compressedSize = view.getUint32(at + 20, true)
    const nameLength = view.getUint16(at + 28, true)
    const extraLength = view.getUint16(at + 30, true)
    const commentLength = view.getUint16(at + 32, true)
    const localOffset = view.getUint32(at + 42, true)
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength))
    at += 46 + nameLength + extraLength + commentLength
    if (name.endsWith('/') || !wanted(name)) continue
    if ((flags & 1) !== 0) throw new ExtractionError('UNSUPPORTED_FORMAT', `${key} is encrypted (entry ${name}), which cannot be indexed`)
    if (localOffset + 30 > bytes.length || view.getUint32(localOffset, true) !== 0x04034b50) throw corrupt(`the local header of ${name} is damaged`)
    const dataStart = localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true)
    const dataEnd = dataStart + compressedSize
    if (dataEnd > bytes.length) throw corrupt(`the data of ${name} runs past the end of the file`)
    const data = bytes.subarray(dataStart, dataEnd)
    if (method === 0) entries.set(name, take(data, budget, key, bounds))
    else if (method === 8) entries.set(name, inflate(data, budget, key, bounds, corrupt, name))
    else throw corrupt(`${name} uses compression method ${method}; only stored and DEFLATE are read`)
  }
  return entries
}

function findEndOfCentralDirectory(bytes: Uint8Array, view: DataView): number {
  const lowest = Math.max(0, bytes.length - 22 - 0xffff)
  for (let i = bytes.length - 22; i >= lowest; i--) {
    if (bytes[i] === 0x50 && view.getUint32(i, true) === 0x06054b50) return i
  }
  return -1
}

function tooLarge(key: string, bounds: ZipBounds): ExtractionError {
  return new ExtractionError(
    'TOO_LARGE',
    `${key} inflates to more than ${bounds.maxInflatedBytes} bytes, the most a compressed document may expand to (a zip bomb?)`,
  )
}

function take(data: Uint8Array, budget: { left: number }, key: string, bounds: ZipBounds): Uint8Array {
  budget.left -= data.length
  if (budget.left < 0) throw tooLarge(key, bounds)
  return data
}

function inflate(
  data: Uint8Array,
  budget: { left: number },
  key: string,
  bounds: ZipBounds,
  corrupt: (why: string) => ExtractionError,
  name: string,
): Uint8Array {
  const chunks: Uint8Array[] = []
  let size = 0
  let ended = false
  const inflater = new Inflate((chunk, final) => {
    budget.left -= chunk.length
    if (budget.left < 0) throw tooLarge(key, bounds)
    chunks.push(chunk)
    size += chunk.length
    if (final) ended = true
  })
  try {
    for (let offset = 0; offset < data.length; offset += INFLATE_SLICE) {
      const last = offset + INFLATE_SLICE >= data.length
      inflater.push(data.subarray(offset, offset + INFLATE_SLICE), last)
    }
    if (data.length === 0) inflater.push(new Uint8Array(0), true)
  } catch (error) {
    if (error instanceof ExtractionError) throw error
    throw corrupt(`${name} does not inflate (${(error as Error).message})`)
  }
  if (!ended && data.length > 0) throw corrupt(`${name} ends before its compressed data does`)
  if (chunks.length === 1) return chunks[0]!
  const out = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.length
  }
  return out
}
