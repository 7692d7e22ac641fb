/** What `buildConsole` wrote: the folder and the content-hashed asset names. */
export interface BuiltConsole {
  outdir: string
  script: string
  stylesheet: string
}

/**
 * Bundles the console (src/console) into `outdir` (default dist/console).
 *
 * @example
 * ```ts
 * const { script } = await buildConsole({ outdir: '/tmp/console' })
 * ```
 */
export function buildConsole(options?: { outdir?: string; minify?: boolean }): Promise<BuiltConsole>
