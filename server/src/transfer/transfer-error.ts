import { BotshelfError } from 'botshelf/api'
/**
 * Why a transfer failed:
 * - `NOT_GZIP`: the content starts with the gzip magic bytes but does not decompress;
 * - `BAD_JSON` / `BAD_CSV`: the text is not valid JSON / CSV;
 * - `ROW_TOO_LARGE`: one row (a CSV record or a JSON element) is larger than `maxRowBytes`;
 * - `TOO_LARGE`: the file, or its decompressed content, is larger than `maxBytes`;
 * - `TOO_COMPRESSED`: gzip content that expands more than `maxRatio` times (a zip bomb; decision 1463);
 * - `NOT_ROWS`: valid JSON that is not an array of row objects nor `{ "rows": [...] }`.
 */
export type TransferErrorCode = 'NOT_GZIP' | 'BAD_JSON' | 'BAD_CSV' | 'ROW_TOO_LARGE' | 'TOO_LARGE' | 'TOO_COMPRESSED' | 'NOT_ROWS'

/**
 * A file that cannot be imported. The message names the request field (`fileId: ...`) and where the problem is
 * (a byte offset, a CSV record and line, a row index), so it can be answered to the caller as it is.
 *
 * @example
 * ```ts
 * try {
 *   for await (const rows of decodeImport(source, { columns })) await insert(rows)
 * } catch (error) {
 *   if (error instanceof TransferError && error.code === 'BAD_CSV') console.log(error.message)
 * }
 * ```
 */
export class TransferError extends BotshelfError {
  override readonly name: string = 'TransferError'
  /** Stable code, safe to branch on. */
  declare readonly code: TransferErrorCode

  constructor(
    code: TransferErrorCode,
    message: string,
    errorOptions?: {
      /** The underlying error, e.g. `{ cause: zlibError }`. */
      cause?: unknown
    },
  ) {
    // A file that cannot be imported is the caller's input.
    super('InvalidPayload', code, message, undefined, errorOptions)
  }
}

/**
 * A {@link TransferError} about the import file, its message prefixed with the request field that named it.
 *
 * @example
 * ```ts
 * throw importFileError('BAD_CSV', 'CSV record 17 (line 17): unterminated quoted field')
 * // message: 'fileId: CSV record 17 (line 17): unterminated quoted field'
 * ```
 */
export function importFileError(code: TransferErrorCode, detail: string, cause?: unknown): TransferError {
  return new TransferError(code, `fileId: ${detail}`, cause === undefined ? undefined : { cause })
}
