#!/usr/bin/env node
// Runs the botshelf CLI from a checkout: `npm run -s botshelf -- <command>` (or `node scripts/botshelf.mjs`).
// It builds first the packages whose dist/ is missing, older than their sources, or left half-built by an
// interrupted build (a package's stamp is removed when its build starts and written only after it succeeds, so an
// interrupted build resumes at the package it stopped in; scripts/build-stamp.mjs), then runs the bundled command,
// server/dist/bundle/bin.js (decision 1486), in this process. Nothing is installed or cached anywhere else, so there is nothing to go
// stale outside the checkout.
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { buildStalePackages, isUpToDate } from './build-stamp.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const server = join(root, 'server')
const bin = join(server, 'dist', 'bundle', 'bin.js')

if (!isUpToDate(root)) {
  process.stderr.write('botshelf: building dist/ and server/dist/ first (missing or out of date)...\n')
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
  // The service's build reads the declarations of botshelf's dist/, so botshelf is built first.
  // The service's command is bundled from its build: a stale bundle would run the old code under a fresh stamp.
  const run = (args, cwd) => spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] }).status === 0
  const built = buildStalePackages(root, (pkg) => run([tsc, '-p', pkg.settings], pkg.dir) && (pkg.name !== 'botshelf-server' || run([join(server, 'scripts', 'build-cli-bundle.mjs')], server)))
  if (!built) {
    process.stderr.write('botshelf: the build failed (see above); fix it, or run "npm run build" to see it again\n')
    process.exit(1)
  }
}

// `npm run` starts scripts in the package folder; relative paths given by the caller are meant from where they ran it.
if (process.env.npm_lifecycle_event === 'botshelf' && process.env.INIT_CWD) process.chdir(process.env.INIT_CWD)
await import(pathToFileURL(bin).href)
