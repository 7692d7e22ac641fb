/** One reader per document format (loaded lazily through `formatReaders`), and the small parsers they share. */
export type { FormatReader, ReadContext } from './format-reader.js'
export { formatNames, formatReaders } from './readers.js'
export { htmlToBlocks } from './html.js'
export { pipeTable } from './pipe-table.js'
