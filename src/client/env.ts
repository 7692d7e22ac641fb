/**
 * Reads an environment variable without assuming a Node runtime: in browsers and edge runtimes
 * `process` does not exist (or has no `env`), and reading it must not throw.
 *
 * @example
 * ```ts
 * readEnv('BP_TOKEN') // 'bp_pat_...' in Node when set, undefined in a browser
 * ```
 */
export function readEnv(name: string): string | undefined {
  try {
    const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    const value = proc?.env?.[name]
    return typeof value === 'string' && value.length > 0 ? value : undefined
  } catch {
    return undefined
  }
}
