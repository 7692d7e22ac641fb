import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { DatasetArchiveError } from '../dataset/index.js'

/**
 * The layout of a backup folder (`botshelf backup --out DIR`): `content/<sha256>` holds every content blob once,
 * by hash, shared by all snapshots (so a later backup copies only new content); `snapshots/<name>/` holds one
 * snapshot each, in the archive format of `botshelf export` (manifest with checksums, `parts/`), its manifest
 * pointing at `../../content`. Snapshot names are UTC times (`20261128T171500123Z`): they sort in time order.
 *
 * @example
 * ```ts
 * backupPaths('./backups').snapshot('20261128T171500123Z') // './backups/snapshots/20261128T171500123Z'
 * ```
 */
export function backupPaths(root: string): { content: string; contentOf(sha256: string): string; snapshots: string; snapshot(name: string): string } {
  return {
    content: join(root, 'content'),
    contentOf: (sha256) => join(root, 'content', sha256),
    snapshots: join(root, 'snapshots'),
    snapshot: (name) => join(root, 'snapshots', name),
  }
}

const SNAPSHOT_NAME = /^\d{8}T\d{9}Z$/

/**
 * The name of a snapshot taken at `at`: its UTC time to the millisecond, digits only.
 *
 * @example
 * ```ts
 * snapshotName(new Date('2026-11-28T17:15:00.123Z')) // '20261128T171500123Z'
 * ```
 */
export function snapshotName(at: Date): string {
  return at.toISOString().replace(/[-:.]/g, '')
}

/**
 * The snapshots of a backup folder, oldest first; an empty list when there are none (or no folder).
 *
 * @example
 * ```ts
 * const names = await listSnapshots('./backups') // ['20261127T020000000Z', '20261128T020000000Z']
 * ```
 */
export async function listSnapshots(root: string): Promise<string[]> {
  const names = await readdir(backupPaths(root).snapshots).catch(() => [] as string[])
  return names.filter((name) => SNAPSHOT_NAME.test(name)).sort()
}

/**
 * The folder of the snapshot to restore: the one named, or the latest. Throws `DatasetArchiveError`
 * (`ARCHIVE_INVALID`) when the folder holds no snapshot or not the one named.
 *
 * @example
 * ```ts
 * const folder = await chooseSnapshot('./backups') // './backups/snapshots/20261128T020000000Z'
 * ```
 */
export async function chooseSnapshot(root: string, name?: string): Promise<string> {
  const names = await listSnapshots(root)
  if (names.length === 0) {
    throw new DatasetArchiveError('ARCHIVE_INVALID', `--from ${root}: not a botshelf backup folder (no snapshots/ with a snapshot); make one with "botshelf backup --out ${root}"`)
  }
  if (name === undefined) return backupPaths(root).snapshot(names.at(-1)!)
  if (!names.includes(name)) {
    throw new DatasetArchiveError('ARCHIVE_INVALID', `--snapshot: expected one of ${names.join(', ')}, received ${JSON.stringify(name)}`)
  }
  return backupPaths(root).snapshot(name)
}
