import { readFile } from 'node:fs/promises'
import { UsageError, type CliIo } from '../io.js'

/**
 * Reads a JSON argument: inline JSON, `@path` for a file, or `-` for standard input. A parse error is a
 * `UsageError` naming the option and what was received.
 *
 * @example
 * ```ts
 * await readJsonArgument('--filter', '{"total":{"$gt":100}}', io) // { total: { $gt: 100 } }
 * await readJsonArgument('--filter', '@filter.json', io)
 * ```
 */
export async function readJsonArgument(option: string, value: string, io: CliIo): Promise<unknown> {
  let text: string
  let origin: string
  if (value === '-') {
    text = await readStdin(io)
    origin = 'standard input'
  } else if (value.startsWith('@')) {
    const path = value.slice(1)
    try {
      text = await readFile(path, 'utf8')
    } catch (error) {
      throw new UsageError(`${option}: cannot read ${path}: ${(error as Error).message}`)
    }
    origin = path
  } else {
    text = value
    origin = 'the command line'
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    const shown = text.length > 80 ? `${text.slice(0, 77)}...` : text
    throw new UsageError(`${option}: expected JSON (inline, @file or - for standard input), received ${JSON.stringify(shown)} from ${origin}: ${(error as Error).message}`)
  }
}

async function readStdin(io: CliIo): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of io.stdin ?? process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk))
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Reads repeated `--tag key=value` options into a tag object; a value without `=` is a `UsageError`.
 *
 * @example
 * ```ts
 * parseTagOptions(['kind=invoice', 'year=2026']) // { kind: 'invoice', year: '2026' }
 * ```
 */
export function parseTagOptions(values: readonly string[] | undefined, option = '--tag'): Record<string, string> {
  const tags: Record<string, string> = {}
  for (const value of values ?? []) {
    const at = value.indexOf('=')
    if (at <= 0) throw new UsageError(`${option} expects key=value, received ${JSON.stringify(value)}`)
    tags[value.slice(0, at)] = value.slice(at + 1)
  }
  return tags
}

/**
 * Reads a whole-number option within bounds, naming the option when it is not one.
 *
 * @example
 * ```ts
 * parseIntegerOption('--limit', '20', 1, 1000) // 20
 * ```
 */
export function parseIntegerOption(option: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined
  const number = Number(value)
  if (!/^\d+$/.test(value) || number < min || number > max) {
    throw new UsageError(`${option} must be a whole number from ${min} to ${max}, received ${JSON.stringify(value)}`)
  }
  return number
}
