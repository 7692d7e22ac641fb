import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DatasetArchiveError } from './errors.js'

/** The format name written in every manifest. */
export const ARCHIVE_FORMAT = 'botshelf-dataset'
/** The format version this code writes and reads. */
export const ARCHIVE_VERSION = 1

/**
 * One data file of an archive: its path inside the archive, how many records (JSON lines) it holds, its size
 * and the sha256 of its bytes.
 *
 * @example
 * ```ts
 * const part: ArchivePart = { path: 'parts/bots.jsonl', records: 1, bytes: 96, sha256: '5e88...' }
 * ```
 */
export interface ArchivePart {
  path: string
  records: number
  bytes: number
  sha256: string
}

/**
 * `manifest.json` of an archive: format and version, when and from what it was made, every data part with its
 * checksum (`parts/blobs.jsonl` lists every content blob with its own sha256 and size), and totals.
 *
 * @example
 * ```ts
 * const manifest = await readManifest('./backup') // throws DatasetArchiveError when it is not an archive
 * ```
 */
export interface ArchiveManifest {
  format: typeof ARCHIVE_FORMAT
  version: typeof ARCHIVE_VERSION
  createdAt: string
  source: string
  parts: ArchivePart[]
  totals: { records: number; tables: number; rows: number; blobs: number; blobBytes: number }
  /**
   * Where the content is: absent in an export (each blob at `blobs/<blobId>` inside the archive); in a snapshot of
   * a backup folder `../../content`, the folder's content by sha256 shared by all its snapshots (`botshelf backup`).
   */
  contentFolder?: typeof BACKUP_CONTENT_FOLDER
}

/** The `contentFolder` of a backup snapshot: `<backup>/snapshots/<name>/` → `<backup>/content/`. */
export const BACKUP_CONTENT_FOLDER = '../../content'

/**
 * The path of a blob's content relative to the archive folder: `blobs/<blobId>` in an export, or
 * `../../content/<sha256>` in a backup snapshot.
 *
 * @example
 * ```ts
 * blobPathOf(manifest, { blobId: '01J...', size: 11, sha256: 'b94d...' }) // 'blobs/01J...' or '../../content/b94d...'
 * ```
 */
export function blobPathOf(manifest: Pick<ArchiveManifest, 'contentFolder'>, entry: BlobEntry): string {
  if (manifest.contentFolder === undefined) return archivePaths.blob(entry.blobId)
  if (!/^[0-9a-f]{64}$/.test(String(entry.sha256))) {
    throw new DatasetArchiveError('ARCHIVE_INVALID', `${archivePaths.blobList}: sha256: expected 64 hex digits, received ${JSON.stringify(entry.sha256)}`)
  }
  return `${manifest.contentFolder}/${entry.sha256}`
}

/**
 * One line of `parts/blobs.jsonl`: a content blob (`blobs/<blobId>`), its size and sha256.
 *
 * @example
 * ```ts
 * const entry: BlobEntry = { blobId: '01J...', size: 11, sha256: 'b94d...' }
 * ```
 */
export interface BlobEntry {
  blobId: string
  size: number
  sha256: string
}

/** Paths inside an archive. */
export const archivePaths = {
  manifest: 'manifest.json',
  part: (name: string) => `parts/${name}.jsonl`,
  tables: 'parts/tables.jsonl',
  rows: (tableId: string) => `parts/rows/${tableId}.jsonl`,
  blobList: 'parts/blobs.jsonl',
  blob: (blobId: string) => `blobs/${blobId}`,
}

/** A blob id safe as a file name (the stores make random ids of these characters). */
export function checkBlobId(blobId: unknown): string {
  if (typeof blobId !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(blobId)) {
    throw new DatasetArchiveError('ARCHIVE_INVALID', `${archivePaths.blobList}: blobId: expected letters, digits, _ or -, received ${JSON.stringify(blobId)}`)
  }
  return blobId
}

/**
 * Reads and checks `manifest.json` of an archive folder: the format, the version, and a well-formed list of parts
 * (paths inside the archive only). Throws `DatasetArchiveError` naming what is wrong.
 *
 * @example
 * ```ts
 * const manifest = await readManifest('./backup')
 * ```
 */
export async function readManifest(folder: string): Promise<ArchiveManifest> {
  let text: string
  try {
    text = await readFile(join(folder, archivePaths.manifest), 'utf8')
  } catch {
    throw new DatasetArchiveError('ARCHIVE_INVALID', `${folder}: not a botshelf archive (no ${archivePaths.manifest}); make one with "botshelf export --out ${folder}"`)
  }
  let manifest: Partial<ArchiveManifest>
  try {
    manifest = JSON.parse(text) as Partial<ArchiveManifest>
  } catch {
    throw new DatasetArchiveError('ARCHIVE_CORRUPT', `${archivePaths.manifest}: expected JSON, received text that does not parse (the archive is damaged)`)
  }
  if (manifest.format !== ARCHIVE_FORMAT) {
    throw new DatasetArchiveError('ARCHIVE_INVALID', `${archivePaths.manifest}: format: expected ${JSON.stringify(ARCHIVE_FORMAT)}, received ${JSON.stringify(manifest.format)}`)
  }
  if (manifest.version !== ARCHIVE_VERSION) {
    throw new DatasetArchiveError('ARCHIVE_INVALID', `${archivePaths.manifest}: version: expected ${ARCHIVE_VERSION}, received ${JSON.stringify(manifest.version)} (made by another botshelf version)`)
  }
  if (!Array.isArray(manifest.parts)) throw new DatasetArchiveError('ARCHIVE_INVALID', `${archivePaths.manifest}: parts: expected an array, received ${JSON.stringify(manifest.parts)}`)
  manifest.parts.forEach((part, index) => {
    const ok =
      typeof part?.path === 'string' && /^parts\/(rows\/)?[A-Za-z0-9_]+\.jsonl$/.test(part.path) && Number.isInteger(part.records) && Number.isInteger(part.bytes) && /^[0-9a-f]{64}$/.test(String(part.sha256))
    if (!ok) throw new DatasetArchiveError('ARCHIVE_INVALID', `${archivePaths.manifest}: parts.${index}: expected { path: "parts/<name>.jsonl", records, bytes, sha256 }, received ${JSON.stringify(part)}`)
  })
  if (manifest.contentFolder !== undefined && manifest.contentFolder !== BACKUP_CONTENT_FOLDER) {
    throw new DatasetArchiveError('ARCHIVE_INVALID', `${archivePaths.manifest}: contentFolder: expected ${JSON.stringify(BACKUP_CONTENT_FOLDER)} or none, received ${JSON.stringify(manifest.contentFolder)}`)
  }
  return manifest as ArchiveManifest
}
