/**
 * Why a transfer failed:
 * - `not_gzip`: the content starts with the gzip magic bytes but does not decompress;
 * - `bad_json` / `bad_csv`: the text is not valid JSON / CSV;
 * - `row_too_large`: one row (a CSV record or a JSON element) is larger than `maxRowBytes`;
 * - `too_large`: the file, or its decompressed content, is larger than `maxBytes`;
 * - `not_rows`: valid JSON that is not an array of row objects nor `{ "rows": [...] }`.
 */
export type TransferErrorCode = 'not_gzip' | 'bad_json' | 'bad_csv' | 'row_too_large' | 'too_large' | 'not_rows'

/**
 * A file that cannot be imported. The message names the request field (`fileId: ...`) and where the problem is
 * (a byte offset, a CSV record and line, a row index), so it can be answered to the caller as it is.
 *
 * @example
 * ```ts
 * try {
 *   for await (const rows of decodeImport(source, { columns })) await insert(rows)
 * } catch (error) {
 *   if (error instanceof TransferError && error.code === 'bad_csv') console.log(error.message)
 * }
 * ```
 */
export class TransferError extends Error {
  override readonly name = 'TransferError'

  constructor(
    /** Stable code, safe to branch on. */
    readonly code: TransferErrorCode,
    message: string,
    errorOptions?: {
      /** The underlying error, e.g. `{ cause: zlibError }`. */
      cause?: unknown
    },
  ) {
    super(message, errorOptions)
  }
}

/**
 * A {@link TransferError} about the import file, its message prefixed with the request field that named it.
 *
 * @example
 * ```ts
 * throw importFileError('bad_csv', 'CSV record 17 (line 17): unterminated quoted field')
 * // message: 'fileId: CSV record 17 (line 17): unterminated quoted field'
 * ```
 */
export function importFileError(code: TransferErrorCode, detail: string, cause?: unknown): TransferError {
  return new TransferError(code, `fileId: ${detail}`, cause === undefined ? undefined : { cause })
}
