// Bundles the built `botshelf` command (dist/cli/bin.js) into dist/bundle/ (decision 1486): the command a user runs
// then loads a few dozen files instead of ~580 modules, which is most of a restart's time. Run by `npm run build`
// after tsc; `node scripts/build-cli-bundle.mjs`.
//
// What stays outside the bundle, resolved from node_modules at run time:
// - native addons and what locates its own files (better-sqlite3, sqlite-vec, pdf.js and its canvas, QuickJS's
//   WebAssembly), which cannot be inlined;
// - large libraries loaded only on first use (the S3 SDK, PostgreSQL's driver, mammoth, exceljs).
// Everything else, our code and the pure-JavaScript dependencies (zod with its English messages only, Hono, ...), is
// inlined; each part imported on first use (a CLI command, extraction, the code sandbox, ...) becomes a chunk of its
// own, loaded when first used.
//
// Layout rule the code relies on: the bundle sits one folder below dist/, as each area's folder does, so the paths
// the code finds from `import.meta.url` (the worker modules, `../../package.json`, the console) resolve the same
// from a chunk as from the module they came from (server/src/platform/spawn-module-worker.ts).
import { chmod, rm } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { englishOnlyZod } from './english-only-zod.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** Packages left to node_modules (see above); a pattern covers a scope. */
export const externalPackages = [
  'better-sqlite3',
  'sqlite-vec',
  'pdfjs-dist',
  '@napi-rs/canvas',
  '@jitl/*',
  'quickjs-emscripten-core',
  '@aws-sdk/*',
  '@smithy/*',
  'postgres',
  'mammoth',
  'exceljs',
]

/**
 * Bundles `dist/cli/bin.js` into `outdir` (default dist/bundle): `bin.js` and its chunks.
 *
 * @example
 * ```js
 * await buildCliBundle({ outdir: '/tmp/bundle' })
 * ```
 */
export async function buildCliBundle({ outdir = join(root, 'dist/bundle') } = {}) {
  await rm(outdir, { recursive: true, force: true })
  await build({
    entryPoints: { bin: join(root, 'dist/cli/bin.js') },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir,
    chunkNames: 'chunk-[hash]',
    external: externalPackages,
    // CommonJS dependencies inlined into ES modules call require() for Node's built-ins.
    banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
    legalComments: 'eof',
    plugins: [englishOnlyZod],
    logLevel: 'warning',
  })
  await chmod(join(outdir, 'bin.js'), 0o755)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now()
  await buildCliBundle()
  process.stderr.write(`the botshelf command bundled in ${join(root, 'dist/bundle')} (${Math.round(performance.now() - started)} ms)\n`)
}
