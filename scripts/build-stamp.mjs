// The build stamp of a checkout: `server/dist/.build-stamp`, written only after both packages built completely.
// `npm run build` writes it last (`node scripts/build-stamp.mjs`), and scripts/botshelf.mjs trusts dist/ only when
// the stamp is newer than every source, so the first CLI call after `npm ci` (whose prepare script builds) does not
// build again, and a build cut short leaves no stamp.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The stamp's path in a checkout. */
export const stampOf = (root) => join(root, 'server', 'dist', '.build-stamp')

function newestSource(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path))
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

/** True when server/dist/ holds a complete build at least as new as every source and build setting. */
export function isUpToDate(root) {
  const stamp = stampOf(root)
  if (!existsSync(join(root, 'server', 'dist', 'cli', 'bin.js')) || !existsSync(stamp)) return false
  const sources = Math.max(
    newestSource(join(root, 'src')),
    newestSource(join(root, 'server', 'src')),
    statSync(join(root, 'tsconfig.build.json')).mtimeMs,
    statSync(join(root, 'server', 'tsconfig.build.json')).mtimeMs,
  )
  return statSync(stamp).mtimeMs >= sources
}

/** Writes the stamp: call it only once both packages are built. */
export function writeBuildStamp(root) {
  writeFileSync(stampOf(root), `${new Date().toISOString()}\n`)
}

// `node scripts/build-stamp.mjs`: the last step of `npm run build`.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) writeBuildStamp(join(dirname(fileURLToPath(import.meta.url)), '..'))
