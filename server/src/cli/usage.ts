import { measureWorkspaceUsage, type BotUsage } from '../usage/index.js'
import { parseCommandArgs } from './args.js'
import type { CliIo } from './io.js'
import { openAuthStore } from './open-store.js'

/**
 * Help text of `botshelf usage`.
 *
 * @example
 * ```ts
 * process.stdout.write(usageHelp)
 * ```
 */
export const usageHelp = `Usage:
  botshelf usage [--data DIR] [--json]

Prints the storage of a data folder (default ./.botshelf) per bot and in total, as the Botpress plans measure it:
  File Storage      content bytes of the files (each file counts its own size)
  Vector DB Storage text bytes plus vector bytes of the passages of indexed files
Works while the server runs. --json prints { bots: [...], total } instead of a table.`

/**
 * Runs `botshelf usage`. Returns the exit code.
 *
 * @example
 * ```ts
 * await usageCommand(['--data', './.botshelf', '--json'], { stdout: process.stdout, stderr: process.stderr })
 * ```
 */
export async function usageCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(args, { data: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, 'usage')
  if (values.help) {
    io.stdout.write(`${usageHelp}\n`)
    return 0
  }
  const { backend } = await openAuthStore(values.data ?? './.botshelf')
  try {
    const usage = await measureWorkspaceUsage(backend)
    if (values.json) {
      io.stdout.write(`${JSON.stringify(usage)}\n`)
      return 0
    }
    const lines = [['bot', 'files', 'file storage', 'passages', 'vector db storage']]
    const row = (name: string, u: Omit<BotUsage, 'botId'>): string[] => [
      name,
      String(u.fileStorage.files),
      formatBytes(u.fileStorage.bytes),
      String(u.vectorStorage.passages),
      formatBytes(u.vectorStorage.bytes),
    ]
    for (const bot of usage.bots) lines.push(row(bot.botId, bot))
    lines.push(row('total', usage.total))
    const widths = lines[0]!.map((_, column) => Math.max(...lines.map((line) => line[column]!.length)))
    for (const line of lines) io.stdout.write(`${line.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ')}\n`)
    return 0
  } finally {
    await backend.close()
  }
}

/**
 * Bytes in the largest binary unit that keeps the number at least 1 (1 KB = 1024 bytes), one decimal.
 *
 * @example
 * ```ts
 * formatBytes(1536) // '1.5 KB'
 * ```
 */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`
}
