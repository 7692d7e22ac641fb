import type { Buffer } from 'node:buffer'
import { ByteCapture } from './byte-capture.js'
import { importFileError } from './transfer-error.js'

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d

// Scanner states: where in `[ rows ]` or `{ "key": value, ..., "rows": [ rows ], ... }` the next byte is.
const TOP = 0
const FIRST_KEY = 1
const NEXT_KEY = 2
const KEY = 3
const COLON_AFTER_KEY = 4
const VALUE = 5
const AFTER_VALUE = 6
const SKIP_STRING = 7
const SKIP_SCALAR = 8
const SKIP_CONTAINER = 9
const FIRST_ROW = 10
const NEXT_ROW = 11
const ROW = 12
const AFTER_ROW = 13
const END = 14

/** Deepest nesting a skipped value may have (its closing brackets are matched on a stack). */
const MAX_SKIP_DEPTH = 10_000

const NOT_ROWS = 'a JSON import is an array of row objects or { "rows": [...] }'

function isJsonWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
}

function describeByte(c: number): string {
  return c >= 0x20 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16).padStart(2, '0')}`
}

/** What a JSON value starting with byte `c` is, or undefined when no JSON value starts so. */
function valueKind(c: number): string | undefined {
  if (c === OPEN_BRACE) return 'an object'
  if (c === OPEN_BRACKET) return 'an array'
  if (c === QUOTE) return 'a string'
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return 'a number'
  if (c === 0x74 || c === 0x66) return 'a boolean'
  if (c === 0x6e) return 'null'
  return undefined
}

/**
 * An incremental reader of a JSON import: finds the rows array (the top-level array, or the value of the
 * top-level object's `rows` key, wherever it comes among the keys) and hands over each element, parsed with
 * `JSON.parse`. The other keys' values are skipped as they stream by, whatever their size: values up to
 * `maxRowBytes` are also parsed to check them, larger ones only for balanced brackets and closed strings.
 * Works on bytes (JSON's structural characters are ASCII, never part of a multi-byte UTF-8 character), so the
 * offsets in errors are byte offsets in the content. Memory is bounded by one row: an element larger than
 * `maxRowBytes` fails (`row_too_large`); an element that is not an object fails (`not_rows`).
 *
 * @example
 * ```ts
 * const scanner = new JsonRowsScanner({ maxRowBytes: 1 << 20, onRow: (row) => rows.push(row) })
 * scanner.push(Buffer.from('{"schema":{"a":1},"ro'))
 * scanner.push(Buffer.from('ws":[{"a":2}]}'))
 * scanner.end() // rows: [{ a: 2 }]
 * ```
 */
export class JsonRowsScanner {
  private readonly maxRowBytes: number
  private readonly onRow: (row: Record<string, unknown>, bytes: number) => void
  private state = TOP
  private base: number
  private topIsObject = false
  private rowsKeySeen = false
  private keyIsRows = false
  private rowIndex = 0
  /** Absolute offset where the value being captured (row, key, skipped value) starts. */
  private valueStart = 0
  private depth = 0
  private inString = false
  private escaped = false
  /** Closing bytes expected by the open containers of a skipped value. */
  private readonly closers: number[] = []
  /** Whether the skipped value grew past `maxRowBytes`, so it is no longer held nor parsed. */
  private skipUnchecked = false
  private readonly capture = new ByteCapture()

  constructor(options: {
    /** Largest row (one array element), in bytes, e.g. `{ maxRowBytes: 1024 * 1024 }`. */
    maxRowBytes: number
    /** Offset of the first pushed byte in the content, for error messages, e.g. `{ startOffset: 3 }` after a BOM. */
    startOffset?: number
    /** Receives each row and its size in bytes, e.g. `onRow: (row, bytes) => batch.push(row)`. */
    onRow: (row: Record<string, unknown>, bytes: number) => void
  }) {
    this.maxRowBytes = options.maxRowBytes
    this.base = options.startOffset ?? 0
    this.onRow = options.onRow
  }

  /**
   * Reads the next bytes of the content, handing over every row they complete.
   *
   * @example
   * ```ts
   * scanner.push(chunk)
   * ```
   */
  push(slice: Buffer): void {
    const n = slice.length
    let i = 0
    while (i < n) {
      switch (this.state) {
        case ROW:
          i = this.scanRow(slice, i)
          continue
        case SKIP_CONTAINER:
          i = this.scanSkippedContainer(slice, i)
          continue
        case KEY:
        case SKIP_STRING:
          i = this.scanString(slice, i)
          continue
        case SKIP_SCALAR:
          i = this.scanScalar(slice, i)
          continue
      }
      const c = slice[i]!
      if (isJsonWhitespace(c)) {
        i++
        continue
      }
      this.structural(slice, i, c)
      i++
    }
    this.base += n
    if (!this.capture.active) return
    this.capture.sliceEnded(slice)
    if (this.capture.size(0) <= this.maxRowBytes) return
    if (this.state === ROW) this.rowTooLarge()
    // A key or a skipped value this large is no longer held: it is scanned to its end, unchecked.
    this.capture.abandon()
    this.skipUnchecked = true
  }

  /**
   * The content ended: fails unless the JSON value is complete and a rows array was found.
   *
   * @example
   * ```ts
   * scanner.end()
   * ```
   */
  end(): void {
    if (this.state !== END) throw this.badJson(this.base, 'unexpected end of the file')
    if (!this.rowsKeySeen) throw importFileError('NOT_ROWS', `${NOT_ROWS}; the top-level object has no "rows" key`)
  }

  /** One byte that is not whitespace, outside any string or value being scanned. */
  private structural(slice: Buffer, i: number, c: number): void {
    const at = this.base + i
    switch (this.state) {
      case TOP:
        if (c === OPEN_BRACKET) {
          this.rowsKeySeen = true
          this.state = FIRST_ROW
        } else if (c === OPEN_BRACE) {
          this.topIsObject = true
          this.state = FIRST_KEY
        } else throw this.badJson(at, `expected '[' or '{', found ${describeByte(c)}`)
        return
      case FIRST_KEY:
      case NEXT_KEY:
        if (c === QUOTE) {
          this.beginValue(i, at)
          this.state = KEY
        } else if (c === CLOSE_BRACE && this.state === FIRST_KEY) this.state = END
        else throw this.badJson(at, `expected ${this.state === FIRST_KEY ? "a key or '}'" : 'a key'}, found ${describeByte(c)}`)
        return
      case COLON_AFTER_KEY:
        if (c !== COLON) throw this.badJson(at, `expected ':', found ${describeByte(c)}`)
        this.state = VALUE
        return
      case VALUE:
        return this.valueStarts(i, at, c)
      case AFTER_VALUE:
        if (c === COMMA) this.state = NEXT_KEY
        else if (c === CLOSE_BRACE) this.state = END
        else throw this.badJson(at, `expected ',' or '}', found ${describeByte(c)}`)
        return
      case FIRST_ROW:
      case NEXT_ROW:
        if (c === OPEN_BRACE) {
          this.beginValue(i, at)
          this.depth = 1
          this.state = ROW
          return
        }
        if (c === CLOSE_BRACKET && this.state === FIRST_ROW) return this.rowsEnded()
        {
          const kind = valueKind(c)
          if (kind !== undefined) throw importFileError('NOT_ROWS', `${NOT_ROWS}; row ${this.rowIndex} (at byte ${at}) is ${kind}`)
        }
        throw this.badJson(at, `expected ${this.state === FIRST_ROW ? "a row or ']'" : 'a row'}, found ${describeByte(c)}`)
      case AFTER_ROW:
        if (c === COMMA) this.state = NEXT_ROW
        else if (c === CLOSE_BRACKET) this.rowsEnded()
        else throw this.badJson(at, `expected ',' or ']' after row ${this.rowIndex - 1}, found ${describeByte(c)}`)
        return
      case END:
        throw this.badJson(at, `unexpected ${describeByte(c)} after the end of the JSON value`)
    }
  }

  /** The first byte of the value of a top-level key. */
  private valueStarts(i: number, at: number, c: number): void {
    const kind = valueKind(c)
    if (kind === undefined) throw this.badJson(at, `expected a value, found ${describeByte(c)}`)
    if (this.keyIsRows) {
      if (this.rowsKeySeen) throw importFileError('NOT_ROWS', `${NOT_ROWS}; "rows" appears twice (the second at byte ${at})`)
      if (c !== OPEN_BRACKET) throw importFileError('NOT_ROWS', `${NOT_ROWS}; "rows" (at byte ${at}) is ${kind}`)
      this.rowsKeySeen = true
      this.state = FIRST_ROW
      return
    }
    this.beginValue(i, at)
    if (c === QUOTE) this.state = SKIP_STRING
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      this.closers.length = 0
      this.closers.push(c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET)
      this.inString = false
      this.escaped = false
      this.state = SKIP_CONTAINER
    } else this.state = SKIP_SCALAR
  }

  private rowsEnded(): void {
    this.state = this.topIsObject ? AFTER_VALUE : END
  }

  /** A row, key or skipped value starts at index `i` of the slice: its scan starts from a clean state. */
  private beginValue(i: number, at: number): void {
    this.valueStart = at
    this.depth = 0
    this.inString = false
    this.escaped = false
    this.closers.length = 0
    this.skipUnchecked = false
    this.capture.begin(i)
  }

  /** Inside a row object: finds its closing brace, then parses it. Returns where to continue. */
  private scanRow(slice: Buffer, from: number): number {
    const n = slice.length
    let depth = this.depth
    let inString = this.inString
    let escaped = this.escaped
    for (let i = from; i < n; i++) {
      const c = slice[i]!
      if (inString) {
        if (escaped) escaped = false
        else if (c === BACKSLASH) escaped = true
        else if (c === QUOTE) inString = false
      } else if (c === QUOTE) inString = true
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++
      else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) {
        this.rowEnded(slice, i + 1)
        return i + 1
      }
    }
    this.depth = depth
    this.inString = inString
    this.escaped = escaped
    return n
  }

  private rowEnded(slice: Buffer, end: number): void {
    const bytes = this.capture.size(end)
    if (bytes > this.maxRowBytes) this.rowTooLarge()
    const text = this.capture.finish(slice, end)
    let row: unknown
    try {
      row = JSON.parse(text)
    } catch (error) {
      throw this.badJson(this.valueStart, `row ${this.rowIndex}: ${(error as Error).message}`, error)
    }
    this.rowIndex++
    this.state = AFTER_ROW
    this.onRow(row as Record<string, unknown>, bytes)
  }

  /** Inside a key or a skipped string (the opening quote already read). Returns where to continue. */
  private scanString(slice: Buffer, from: number): number {
    const n = slice.length
    let escaped = this.escaped
    for (let i = from; i < n; i++) {
      const c = slice[i]!
      if (escaped) escaped = false
      else if (c === BACKSLASH) escaped = true
      else if (c === QUOTE) {
        this.escaped = false
        this.valueEnded(slice, i + 1)
        return i + 1
      }
    }
    this.escaped = escaped
    return n
  }

  /** Inside a skipped number or literal: it ends at the first delimiter, which is then read as structure. */
  private scanScalar(slice: Buffer, from: number): number {
    const n = slice.length
    for (let i = from; i < n; i++) {
      const c = slice[i]!
      if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isJsonWhitespace(c)) {
        this.valueEnded(slice, i)
        return i
      }
    }
    return n
  }

  /** Inside a skipped object or array: matches brackets on a stack, skipping strings. */
  private scanSkippedContainer(slice: Buffer, from: number): number {
    const n = slice.length
    const closers = this.closers
    let inString = this.inString
    let escaped = this.escaped
    for (let i = from; i < n; i++) {
      const c = slice[i]!
      if (inString) {
        if (escaped) escaped = false
        else if (c === BACKSLASH) escaped = true
        else if (c === QUOTE) inString = false
      } else if (c === QUOTE) inString = true
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (closers.length === MAX_SKIP_DEPTH) throw this.badJson(this.base + i, `values nested deeper than ${MAX_SKIP_DEPTH} levels`)
        closers.push(c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET)
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (closers.pop() !== c) throw this.badJson(this.base + i, `unexpected ${describeByte(c)}`)
        if (closers.length === 0) {
          this.inString = false
          this.escaped = false
          this.valueEnded(slice, i + 1)
          return i + 1
        }
      }
    }
    this.inString = inString
    this.escaped = escaped
    return n
  }

  /**
   * A key or a skipped value ended just before index `end`: parses it when it was small enough to hold (which
   * checks it, and tells whether a key is `rows`, escapes included).
   */
  private valueEnded(slice: Buffer, end: number): void {
    const isKey = this.state === KEY
    this.state = isKey ? COLON_AFTER_KEY : AFTER_VALUE
    this.keyIsRows = false
    if (this.skipUnchecked || this.capture.size(end) > this.maxRowBytes) {
      this.capture.abandon()
      this.skipUnchecked = false
      return
    }
    const text = this.capture.finish(slice, end)
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      throw this.badJson(this.valueStart, `${isKey ? 'a key' : 'a value'}: ${(error as Error).message}`, error)
    }
    this.keyIsRows = isKey && value === 'rows'
  }

  private rowTooLarge(): never {
    this.capture.abandon()
    throw importFileError('ROW_TOO_LARGE', `row ${this.rowIndex} (at byte ${this.valueStart}) is larger than ${this.maxRowBytes} bytes`)
  }

  private badJson(at: number, detail: string, cause?: unknown) {
    return importFileError('BAD_JSON', `the file is not valid JSON at byte ${at} (${detail})`, cause)
  }
}
