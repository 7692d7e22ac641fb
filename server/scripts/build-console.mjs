// Builds the web console (src/console/ui, preact + TSX) into dist/console/ui: one minified script and one stylesheet
// named by their content hash, and an index.html that loads them (no inline script or style: the console's CSP
// forbids both). Run by `npm run build`; `node scripts/build-console.mjs [outdir]`.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { englishOnlyZod } from './english-only-zod.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')


/**
 * Bundles the console into `outdir` (default dist/console/ui) and returns the written asset names.
 *
 * @example
 * ```js
 * const { script, stylesheet } = await buildConsole({ outdir: '/tmp/console' })
 * ```
 */
export async function buildConsole({ outdir = join(root, 'dist/console/ui'), minify = true } = {}) {
  await rm(outdir, { recursive: true, force: true })
  const assets = join(outdir, 'assets')
  await mkdir(assets, { recursive: true })
  const result = await build({
    entryPoints: [join(root, 'src/console/ui/main.tsx')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome109', 'firefox115', 'safari16'],
    minify,
    sourcemap: false,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: 'app-[hash]',
    assetNames: 'asset-[hash]',
    outdir: assets,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [englishOnlyZod],
  })
  const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path))
  const script = outputs.find((name) => name.endsWith('.js'))
  const stylesheet = outputs.find((name) => name.endsWith('.css'))
  if (!script || !stylesheet) throw new Error(`console build: expected one .js and one .css output, got ${outputs.join(', ')}`)
  const template = await readFile(join(root, 'src/console/ui/page.html'), 'utf8')
  const html = template.replace('%SCRIPT%', `assets/${script}`).replace('%STYLESHEET%', `assets/${stylesheet}`)
  await writeFile(join(outdir, 'index.html'), html)
  return { outdir, script, stylesheet }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const target = process.argv[2] ? resolve(process.argv[2]) : undefined
  const { outdir, script, stylesheet } = await buildConsole(target ? { outdir: target } : {})
  console.error(`console built in ${outdir}: ${script}, ${stylesheet}`)
}
