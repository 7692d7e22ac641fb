// Moving a whole dataset between storage modes: the archive format, `exportDataset` and `importDataset` (what
// `botshelf export` and `botshelf import` run), their progress reports and errors.
export { ARCHIVE_FORMAT, ARCHIVE_VERSION, archivePaths, readManifest, type ArchiveManifest, type ArchivePart, type BlobEntry } from './archive-format.js'
export { DatasetArchiveError, type DatasetArchiveErrorCode } from './errors.js'
export { exportDataset, type ExportOptions, type ExportResult } from './export-dataset.js'
export { importDataset, type ImportOptions, type ImportResult } from './import-dataset.js'
export { quietProgress, type TransferPhase, type TransferProgress } from './progress.js'
