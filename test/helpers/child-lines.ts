import type { ChildProcessWithoutNullStreams } from 'node:child_process'

/**
 * Resolves with the first match of `pattern` in a child's stdout; rejects, with the child's stderr, when the child
 * exits first or `ms` pass. `name` says who the child is in the error ("the server", "the worker").
 *
 * @example
 * const [, url] = await lineFrom(child, /ready (\S+)\n/, 30_000, 'the server')
 */
export function lineFrom(child: ChildProcessWithoutNullStreams, pattern: RegExp, ms: number, name = 'the child'): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    const timer = setTimeout(() => finish(new Error(`no line matching ${pattern} within ${ms} ms; stderr:\n${err}`)), ms)
    const onOut = (chunk: Buffer): void => {
      out += chunk.toString()
      const match = pattern.exec(out)
      if (match) finish(match)
    }
    const onErr = (chunk: Buffer): void => void (err += chunk.toString())
    const onExit = (code: number | null, signal: string | null): void =>
      finish(new Error(`${name} exited (${code ?? signal}) before writing ${pattern}; stderr:\n${err}`))
    function finish(result: RegExpExecArray | Error): void {
      clearTimeout(timer)
      child.stdout.off('data', onOut)
      child.stderr.off('data', onErr)
      child.off('exit', onExit)
      if (result instanceof Error) reject(result)
      else resolve(result)
    }
    child.stdout.on('data', onOut)
    child.stderr.on('data', onErr)
    child.once('exit', onExit)
  })
}
