// The build stamps of a checkout, one per package: `dist/.build-stamp` (botshelf) and `server/dist/.build-stamp`
// (botshelf-server). A package's stamp is removed when its build starts and written only once that build succeeded,
// so a build cut short (Ctrl-C, a crash) never leaves a stamp claiming success, and the next build starts from the
// first package without one: botshelf built before the interruption is not built again, and TypeScript's
// incremental build info (`dist/.tsbuildinfo`) keeps the rebuild of the other short when its sources did not change.
// `npm run build` clears the stamps first and writes each after its package (`node scripts/build-stamp.mjs ...`);
// scripts/botshelf.mjs builds only the stale packages (`buildStalePackages`).
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The packages of a checkout in build order: where they build, what they read and what proves them built.
 *
 * @example
 * packagesOf('/repo').map((p) => p.name) // ['botshelf', 'botshelf-server']
 */
export function packagesOf(root) {
  return [
    { name: 'botshelf', dir: root, sources: join(root, 'src'), settings: join(root, 'tsconfig.build.json'), stamp: join(root, 'dist', '.build-stamp'), output: join(root, 'dist', 'index.js') },
    {
      name: 'botshelf-server',
      dir: join(root, 'server'),
      sources: join(root, 'server', 'src'),
      settings: join(root, 'server', 'tsconfig.build.json'),
      stamp: join(root, 'server', 'dist', '.build-stamp'),
      output: join(root, 'server', 'dist', 'bundle', 'bin.js'),
    },
  ]
}

/** The stamp of the service package (the last one built), kept for callers that name one stamp. */
export const stampOf = (root) => packagesOf(root)[1].stamp

function newestSource(dir) {
  let newest = 0
  if (!existsSync(dir)) return newest
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path))
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

const mtimeOf = (path) => (existsSync(path) ? statSync(path).mtimeMs : 0)

/**
 * The packages whose build is missing, cut short (no stamp) or older than their sources, build settings or a
 * package they build on (the service reads botshelf's declarations): a stale package makes every later one stale.
 *
 * @example
 * stalePackages('/repo').map((p) => p.name) // ['botshelf-server'] after an interrupted service build
 */
export function stalePackages(root) {
  const stale = []
  let before = 0
  for (const pkg of packagesOf(root)) {
    const stamp = mtimeOf(pkg.stamp)
    const fresh = stale.length === 0 && existsSync(pkg.output) && stamp > 0 && stamp >= Math.max(newestSource(pkg.sources), mtimeOf(pkg.settings), before)
    if (!fresh) stale.push(pkg)
    before = stamp
  }
  return stale
}

/** True when both packages hold a complete build at least as new as every source and build setting. */
export function isUpToDate(root) {
  return stalePackages(root).length === 0
}

/** Removes a package's stamp (its build starts), or every stamp without a name. */
export function clearBuildStamp(root, name) {
  for (const pkg of packagesOf(root)) if (name === undefined || pkg.name === name) rmSync(pkg.stamp, { force: true })
}

/** Writes a package's stamp (its build succeeded), or every stamp without a name. */
export function writeBuildStamp(root, name) {
  for (const pkg of packagesOf(root)) if (name === undefined || pkg.name === name) writeFileSync(pkg.stamp, `${new Date().toISOString()}\n`)
}

/**
 * Builds the stale packages in order with `compile(pkg)` (returns true when the build succeeded): each package's
 * stamp is removed before its build and written after it succeeds; the first failure stops. Returns whether every
 * package is built.
 *
 * @example
 * buildStalePackages(root, (pkg) => spawnSync(process.execPath, [tsc, '-p', pkg.settings]).status === 0)
 */
export function buildStalePackages(root, compile) {
  for (const pkg of stalePackages(root)) {
    clearBuildStamp(root, pkg.name)
    if (!compile(pkg)) return false
    writeBuildStamp(root, pkg.name)
  }
  return true
}

// `node scripts/build-stamp.mjs clear` before `npm run build`, `node scripts/build-stamp.mjs <package>` after each.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..')
  const [command] = process.argv.slice(2)
  if (command === 'clear') clearBuildStamp(root)
  else writeBuildStamp(root, command)
}
