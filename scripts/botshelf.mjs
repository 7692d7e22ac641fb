#!/usr/bin/env node
// Runs the botshelf CLI from a checkout: `npm run -s botshelf -- <command>` (or `node scripts/botshelf.mjs`).
// It builds dist/ first when it is missing, older than src/, or left half-built by an interrupted build (a
// stamp is written only after a build succeeds), then runs dist/cli/bin.js in this process. Nothing is
// installed or cached anywhere else, so there is nothing to go stale outside the checkout.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bin = join(root, 'dist', 'cli', 'bin.js')
const stamp = join(root, 'dist', '.build-stamp')

function newestSource(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path))
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

function upToDate() {
  if (!existsSync(bin) || !existsSync(stamp)) return false
  const sources = Math.max(newestSource(join(root, 'src')), statSync(join(root, 'tsconfig.build.json')).mtimeMs)
  return statSync(stamp).mtimeMs >= sources
}

if (!upToDate()) {
  process.stderr.write('botshelf: building dist/ from src/ first (it is missing or out of date)...\n')
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] })
  if (result.status !== 0) {
    process.stderr.write('botshelf: the build failed (see above); fix it, or run "npm run build" to see it again\n')
    process.exit(1)
  }
  writeFileSync(stamp, `${new Date().toISOString()}\n`)
}

// `npm run` starts scripts in the package folder; relative paths given by the caller are meant from where they ran it.
if (process.env.npm_lifecycle_event === 'botshelf' && process.env.INIT_CWD) process.chdir(process.env.INIT_CWD)
await import(pathToFileURL(bin).href)
