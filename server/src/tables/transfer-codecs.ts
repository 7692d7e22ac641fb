/**
 * The CSV and JSON transfer codecs, loaded by the first import or export job of the process and kept (decision 1480):
 * a serving process that never imports nor exports a table does not load them. Job runs only, never a request path.
 *
 * @example
 * ```ts
 * const { decodeImport } = await transferCodecs()
 * for await (const batch of decodeImport(stream, { columns })) console.log(batch.rows.length)
 * ```
 */
export function transferCodecs(): Promise<typeof import('../transfer/index.js')> {
  return (loaded ??= import('../transfer/index.js'))
}

let loaded: Promise<typeof import('../transfer/index.js')> | undefined
