import { Buffer } from 'node:buffer'
import { ByteCapture } from './byte-capture.js'
import { importFileError } from './transfer-error.js'

/**
 * One CSV record as the scanner hands it over: valid only during the callback (the scanner reuses it), fields
 * decoded on demand so that ignored columns cost nothing.
 */
export interface CsvRecordView {
  /** 1-based record number (the header is record 1; blank lines count). */
  readonly number: number
  /** 1-based line where the record starts (CRLF, LF or a lone CR end a line, also inside quotes). */
  readonly line: number
  /** The record's size in the content, in bytes (its line ending excluded). */
  readonly byteLength: number
  /** How many fields the record has (at least one). */
  readonly fieldCount: number
  /** The text of field `index`, quotes removed and `""` turned into `"`. */
  fieldText(index: number): string
  /** Whether field `index` was quoted (a quoted empty field is the empty string, an unquoted one no value). */
  fieldQuoted(index: number): boolean
}

const COMMA = 0x2c
const QUOTE = 0x22
const CR = 0x0d
const LF = 0x0a

// Scanner states.
/** Between records: the next byte starts a record. */
const RECORD_START = 0
/** After a comma: the next byte starts a field. */
const FIELD_START = 1
const UNQUOTED = 2
const QUOTED = 3
/** Just after a quote inside a quoted field: it closed the field, or it is the first of a doubled `""`. */
const QUOTE_IN_QUOTED = 4
/** A record ended with CR: a LF right after it belongs to the same line ending. */
const AFTER_CR = 5

const FLAG_QUOTED = 1
const FLAG_DOUBLED_QUOTES = 2
const EMPTY = Buffer.alloc(0)

/**
 * An incremental RFC 4180 reader with today's `parseCsv` rules: fields separated by `,`, records by CRLF, LF or a
 * lone CR (a CRLF split across two slices included), a field quoted when it starts with `"` (`""` inside for a
 * quote, any byte including line breaks allowed), no empty record after a final line ending. It works on bytes:
 * the separators are ASCII, which never occurs inside a multi-byte UTF-8 character, and fields are decoded only
 * when read. Memory is bounded by one record: a record larger than `maxRowBytes` fails (`row_too_large`).
 *
 * @example
 * ```ts
 * const scanner = new CsvRecordScanner({ maxRowBytes: 1 << 20, onRecord: (r) => console.log(r.fieldText(0)) })
 * scanner.push(Buffer.from('a,"b\r'))
 * scanner.push(Buffer.from('\nc"\r\n1,2'))
 * scanner.end() // logs 'a' then '1'
 * ```
 */
export class CsvRecordScanner implements CsvRecordView {
  number = 0
  line = 1
  byteLength = 0
  fieldCount = 0

  private readonly maxRowBytes: number
  private readonly onRecord: (record: CsvRecordView) => void
  private state = RECORD_START
  /** Absolute offset (in the decompressed content) of the current slice's first byte. */
  private base: number
  private currentLine = 1
  private recordStart = 0
  private fieldStart = 0
  private fieldHasDoubledQuotes = false
  /** A CR inside a quoted field ended a slice: whether it ends a line depends on the next byte. */
  private quotedCrPending = false
  private readonly starts: number[] = []
  private readonly ends: number[] = []
  private readonly flags: number[] = []
  private readonly capture = new ByteCapture()
  private recordBytes: Buffer = EMPTY
  private recordBytesBase = 0

  constructor(options: {
    /** Largest record, in bytes, e.g. `{ maxRowBytes: 1024 * 1024 }`. */
    maxRowBytes: number
    /** Offset of the first pushed byte in the content, for error messages, e.g. `{ startOffset: 3 }` after a BOM. */
    startOffset?: number
    /** Receives each record, e.g. `onRecord: (record) => rows.push(record.fieldText(0))`. */
    onRecord: (record: CsvRecordView) => void
  }) {
    this.maxRowBytes = options.maxRowBytes
    this.base = options.startOffset ?? 0
    this.onRecord = options.onRecord
  }

  /**
   * The text of one field of the record being handed over.
   *
   * @example
   * ```ts
   * record.fieldText(0) // 'name'
   * ```
   */
  fieldText(index: number): string {
    const start = this.starts[index]! - this.recordBytesBase
    const end = this.ends[index]! - this.recordBytesBase
    if (start === end) return ''
    const text = this.recordBytes.toString('utf8', start, end)
    return (this.flags[index]! & FLAG_DOUBLED_QUOTES) === 0 ? text : text.replaceAll('""', '"')
  }

  /**
   * Whether one field of the record being handed over was quoted.
   *
   * @example
   * ```ts
   * record.fieldQuoted(1) // true for `""`
   * ```
   */
  fieldQuoted(index: number): boolean {
    return (this.flags[index]! & FLAG_QUOTED) !== 0
  }

  /**
   * Reads the next bytes of the content, handing over every record they complete.
   *
   * @example
   * ```ts
   * scanner.push(chunk)
   * ```
   */
  push(slice: Buffer): void {
    const n = slice.length
    const base = this.base
    let state = this.state
    let i = 0
    if (this.quotedCrPending && n > 0) {
      this.quotedCrPending = false
      if (slice[0] !== LF) this.currentLine++
    }
    while (i < n) {
      switch (state) {
        case AFTER_CR:
          state = RECORD_START
          if (slice[i] === LF) i++
          continue
        case RECORD_START:
          this.beginRecord(i)
          state = FIELD_START
          continue
        case FIELD_START:
          if (slice[i] === QUOTE) {
            this.fieldStart = base + i + 1
            this.fieldHasDoubledQuotes = false
            state = QUOTED
            i++
          } else {
            this.fieldStart = base + i
            state = UNQUOTED
          }
          continue
        case UNQUOTED: {
          let j = i
          let c = 0
          for (; j < n; j++) {
            c = slice[j]!
            if (c === COMMA || c === CR || c === LF) break
          }
          i = j
          if (j === n) continue
          this.addField(base + j, 0)
          i++
          if (c === COMMA) state = FIELD_START
          else state = this.endRecordAt(slice, j, c)
          continue
        }
        case QUOTED: {
          let j = i
          for (; j < n; j++) {
            const c = slice[j]!
            if (c === QUOTE) break
            if (c === LF) this.currentLine++
            else if (c === CR) {
              if (j + 1 === n) this.quotedCrPending = true
              else if (slice[j + 1] !== LF) this.currentLine++
            }
          }
          i = j
          if (j === n) continue
          state = QUOTE_IN_QUOTED
          i++
          continue
        }
        case QUOTE_IN_QUOTED: {
          const c = slice[i]!
          if (c === QUOTE) {
            this.fieldHasDoubledQuotes = true
            state = QUOTED
            i++
            continue
          }
          if (c !== COMMA && c !== CR && c !== LF) {
            this.state = state
            throw importFileError('BAD_CSV', `${this.where()}: text after a closing quote`)
          }
          // The quote before this byte closed the field.
          this.addField(base + i - 1, this.fieldHasDoubledQuotes ? FLAG_QUOTED | FLAG_DOUBLED_QUOTES : FLAG_QUOTED)
          i++
          if (c === COMMA) state = FIELD_START
          else state = this.endRecordAt(slice, i - 1, c)
          continue
        }
      }
    }
    this.state = state
    this.base = base + n
    if (state !== RECORD_START && state !== AFTER_CR) {
      this.capture.sliceEnded(slice)
      this.checkRecordSize(this.capture.size(0))
    }
  }

  /**
   * The content ended: hands over the last record when it has no final line ending, and fails on a quoted field
   * left open.
   *
   * @example
   * ```ts
   * scanner.end()
   * ```
   */
  end(): void {
    const end = this.base
    switch (this.state) {
      case RECORD_START:
      case AFTER_CR:
        return
      case QUOTED:
        throw importFileError('BAD_CSV', `${this.where()}: unterminated quoted field`)
      case FIELD_START:
        // A final comma: the record ends with an empty field.
        this.fieldStart = end
        this.addField(end, 0)
        break
      case UNQUOTED:
        this.addField(end, 0)
        break
      case QUOTE_IN_QUOTED:
        this.addField(end - 1, this.fieldHasDoubledQuotes ? FLAG_QUOTED | FLAG_DOUBLED_QUOTES : FLAG_QUOTED)
        break
    }
    this.state = RECORD_START
    this.emitRecord(EMPTY, 0)
  }

  private where(): string {
    return `CSV record ${this.number} (line ${this.line})`
  }

  private beginRecord(at: number): void {
    this.number++
    this.line = this.currentLine
    this.recordStart = this.base + at
    this.fieldCount = 0
    this.capture.begin(at)
  }

  private addField(end: number, flags: number): void {
    const index = this.fieldCount++
    this.starts[index] = this.fieldStart
    this.ends[index] = end
    this.flags[index] = flags
  }

  /** Ends the record at the line-ending byte `c` found at index `at`; returns the state after it. */
  private endRecordAt(slice: Buffer, at: number, c: number): number {
    this.currentLine++
    this.emitRecord(slice, at)
    return c === CR ? AFTER_CR : RECORD_START
  }

  private emitRecord(slice: Buffer, end: number): void {
    this.byteLength = this.capture.size(end)
    this.checkRecordSize(this.byteLength)
    const { bytes, start } = this.capture.finishBytes(slice, end)
    this.recordBytes = bytes
    this.recordBytesBase = bytes === slice ? this.base : this.recordStart - start
    this.onRecord(this)
    this.recordBytes = EMPTY
  }

  private checkRecordSize(bytes: number): void {
    if (bytes > this.maxRowBytes) {
      this.capture.abandon()
      throw importFileError('ROW_TOO_LARGE', `${this.where()} is larger than ${this.maxRowBytes} bytes`)
    }
  }
}
