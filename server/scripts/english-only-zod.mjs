// An esbuild plugin shared by the bundles this package builds (the console, the CLI).
import { dirname, resolve } from 'node:path'

/**
 * zod's namespace re-exports every translation of its messages (about 260 KB minified), which the namespace
 * import keeps in the bundle. botshelf's messages are English and it only ever uses zod's English default
 * (the console and the service alike), so the locales index is replaced by English alone.
 */
export const englishOnlyZod = {
  name: 'english-only-zod',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]zod[\\/]/.test(args.importer)) return undefined
      return { path: resolve(dirname(args.importer), '../locales/en.js'), namespace: 'zod-locales' }
    })
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)}`,
      resolveDir: dirname(args.path),
    }))
  },
}
