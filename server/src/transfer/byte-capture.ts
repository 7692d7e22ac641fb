import { Buffer } from 'node:buffer'

/**
 * The bytes of one value (a JSON element, a CSV record, a key) that may start in one slice of input and end in a
 * later one. Within a slice nothing is copied; when a slice ends mid-value its tail is copied, so the caller's
 * buffers are never kept and at most one value is held.
 *
 * @example
 * ```ts
 * const capture = new ByteCapture()
 * capture.begin(10) // the value starts at index 10 of the current slice
 * capture.sliceEnded(slice) // copies slice[10..]
 * const text = capture.finish(nextSlice, 4) // previous tail + nextSlice[0..4], decoded as UTF-8
 * ```
 */
export class ByteCapture {
  private parts: Buffer[] = []
  private heldBytes = 0
  private start = 0
  private capturing = false

  /** Whether a value is being captured. */
  get active(): boolean {
    return this.capturing
  }

  /**
   * Starts capturing at index `at` of the current slice.
   *
   * @example
   * ```ts
   * capture.begin(i)
   * ```
   */
  begin(at: number): void {
    this.parts = []
    this.heldBytes = 0
    this.start = at
    this.capturing = true
  }

  /**
   * Bytes captured if the value ended just before index `end` of the current slice.
   *
   * @example
   * ```ts
   * if (capture.size(i) > maxRowBytes) throw tooLarge()
   * ```
   */
  size(end: number): number {
    return this.heldBytes + end - this.start
  }

  /**
   * The current slice is used up: keeps a copy of its captured tail, the next slice continues the value.
   *
   * @example
   * ```ts
   * capture.sliceEnded(slice)
   * ```
   */
  sliceEnded(slice: Buffer): void {
    if (!this.capturing) return
    if (this.start < slice.length) {
      this.parts.push(Buffer.from(slice.subarray(this.start)))
      this.heldBytes += slice.length - this.start
    }
    this.start = 0
  }

  /**
   * Ends the value just before index `end` of the current slice and returns its bytes (a view when the value
   * lies within the slice, a copy otherwise) with the index in them where the value starts (0 for a copy).
   *
   * @example
   * ```ts
   * const { bytes, start } = capture.finishBytes(slice, i)
   * ```
   */
  finishBytes(slice: Buffer, end: number): { bytes: Buffer; start: number } {
    const start = this.start
    const parts = this.parts
    this.abandon()
    if (parts.length === 0) return { bytes: slice, start }
    parts.push(slice.subarray(0, end))
    return { bytes: Buffer.concat(parts), start: 0 }
  }

  /**
   * Ends the value just before index `end` of the current slice and returns it decoded as UTF-8 (invalid
   * sequences become U+FFFD, as `Buffer#toString` does).
   *
   * @example
   * ```ts
   * const row = JSON.parse(capture.finish(slice, i + 1))
   * ```
   */
  finish(slice: Buffer, end: number): string {
    const { bytes, start } = this.finishBytes(slice, end)
    return bytes.toString('utf8', start, bytes === slice ? end : bytes.length)
  }

  /**
   * Stops capturing and drops what was held (a value too large to keep, or an error).
   *
   * @example
   * ```ts
   * capture.abandon()
   * ```
   */
  abandon(): void {
    this.parts = []
    this.heldBytes = 0
    this.start = 0
    this.capturing = false
  }
}
