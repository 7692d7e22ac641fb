/**
 * The bounds of a table import (decision 1463): a gzip file may expand at most `maxRatio` times, its decompressed
 * content is at most `maxBytes`, and the rows it brings may take a table past `tableRows` rows nor a bot (all its
 * tables) past `botRows` rows, nor take a table past `tableBytes` stored bytes nor a bot past `botBytes`.
 */
export interface ImportLimits {
  /** Most decompressed bytes per gzip byte (past the first MiB). Default 100, e.g. `{ maxRatio: 50 }`. */
  maxRatio: number
  /** Largest import file, and largest decompressed content, in bytes. Default 4 GiB, e.g. `{ maxBytes: 256 * 1024 ** 2 }`. */
  maxBytes: number
  /** Most rows a table may hold after an import. Default 1,000,000, e.g. `{ tableRows: 100_000 }`. */
  tableRows: number
  /** Most rows all the tables of one bot may hold after an import. Default 5,000,000, e.g. `{ botRows: 1_000_000 }`. */
  botRows: number
  /**
   * Most bytes a table's rows may store after an import (the text form of every value, as `storedBytes` measures).
   * Default 1 GiB, e.g. `{ tableBytes: 64 * 1024 ** 2 }`.
   */
  tableBytes: number
  /** Most bytes all the tables of one bot may store after an import. Default 5 GiB, e.g. `{ botBytes: 1024 ** 3 }`. */
  botBytes: number
}

/**
 * The default bounds: generous for real CSV (which compresses 3 to 20 times), fatal to a zip bomb.
 *
 * @example
 * ```ts
 * const limits = { ...defaultImportLimits, tableRows: 50_000 }
 * ```
 */
export const defaultImportLimits: Readonly<ImportLimits> = Object.freeze({
  maxRatio: 100,
  maxBytes: 4 * 1024 * 1024 * 1024,
  tableRows: 1_000_000,
  botRows: 5_000_000,
  tableBytes: 1024 ** 3,
  botBytes: 5 * 1024 ** 3,
})

/**
 * The bounds with the operator's values over the defaults; a value that is not a positive integer is refused.
 *
 * @example
 * ```ts
 * importLimitsOf({ tableRows: 10_000 }) // { maxRatio: 100, maxBytes: 4294967296, tableRows: 10000, botRows: 5000000, tableBytes: 1073741824, botBytes: 5368709120 }
 * ```
 */
export function importLimitsOf(given: Partial<ImportLimits> = {}): ImportLimits {
  const limits = { ...defaultImportLimits, ...given }
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`importLimits.${name}: expected a positive integer, received ${String(value)}`)
  }
  return limits
}

