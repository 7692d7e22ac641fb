import { parseCommandArgs, type CommandOptions, type ParsedCommand } from './args.js'
import { UsageError, type CliIo } from './io.js'

/**
 * One subcommand of a group (`files put`, `tables find`): its help and how it runs.
 *
 * @example
 * ```ts
 * const ls: Subcommand = { name: 'ls', usage: 'botshelf files ls [--prefix P]', help: 'Lists files.', run: filesLs }
 * ```
 */
export interface Subcommand {
  /** Its name after the group (`put`). */
  name: string
  /** One usage line (`botshelf files put <file or folder> [--prefix P]`). */
  usage: string
  /** What it does and its options, printed by `--help` under the usage line. */
  help: string
  /** Runs it with the arguments after its name; resolves with the exit code. */
  run(args: string[], io: CliIo): Promise<number>
}

/**
 * The help of a group: every subcommand's usage line, then a pointer to the per-subcommand help.
 *
 * @example
 * ```ts
 * io.stdout.write(groupHelp('files', 'Work with the files of a bot.', filesSubcommands))
 * ```
 */
export function groupHelp(group: string, summary: string, subcommands: readonly Subcommand[], footer = ''): string {
  return `Usage:\n${subcommands.map((s) => `  ${s.usage}`).join('\n')}\n\n${summary}\nRun "botshelf ${group} <command> --help" for the options of one command.${footer ? `\n\n${footer}` : ''}\n`
}

/**
 * Runs a group's subcommand: `--help` (or no subcommand) prints the group's help, an unknown name is a
 * `UsageError` listing the known ones.
 *
 * @example
 * ```ts
 * return runGroup('files', 'Work with the files of a bot.', filesSubcommands, args, io)
 * ```
 */
export async function runGroup(group: string, summary: string, subcommands: readonly Subcommand[], args: string[], io: CliIo, footer = ''): Promise<number> {
  const [name, ...rest] = args
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const text = groupHelp(group, summary, subcommands, footer)
    if (name === undefined) {
      io.stderr.write(text)
      return 2
    }
    io.stdout.write(text)
    return 0
  }
  const subcommand = subcommands.find((s) => s.name === name)
  if (!subcommand) {
    throw new UsageError(`Unknown ${group} command "${name}"; expected ${subcommands.map((s) => s.name).join(', ')}.\nRun "botshelf ${group} --help" for usage.`)
  }
  return await subcommand.run(rest, io)
}

/**
 * Parses a subcommand's arguments with `-h/--help` added; resolves to `undefined` after printing the
 * subcommand's own help when it was asked for.
 *
 * @example
 * ```ts
 * const parsed = parseSubcommand(sub, args, io, { prefix: { type: 'string' } })
 * if (!parsed) return 0
 * ```
 */
export function parseSubcommand<O extends CommandOptions>(
  group: string,
  subcommand: Pick<Subcommand, 'name' | 'usage' | 'help'>,
  args: string[],
  io: CliIo,
  options: O,
): ParsedCommand<O & { help: { type: 'boolean'; short: 'h' } }> | undefined {
  const parsed = parseCommandArgs(args, { ...options, help: { type: 'boolean', short: 'h' } } as O & { help: { type: 'boolean'; short: 'h' } }, `${group} ${subcommand.name}`, true)
  if ((parsed.values as { help?: boolean }).help) {
    io.stdout.write(`Usage: ${subcommand.usage}\n\n${subcommand.help}\n`)
    return undefined
  }
  return parsed
}

/**
 * Checks the number of positional arguments of a subcommand, naming what was expected.
 *
 * @example
 * ```ts
 * expectPositionals('files get', positionals, ['<key or prefix/>', '<destination>'])
 * ```
 */
export function expectPositionals(command: string, positionals: readonly string[], names: readonly string[], atLeast = names.length, atMost = names.length): void {
  if (positionals.length < atLeast || positionals.length > atMost) {
    const expected = atLeast === atMost ? `${atLeast}` : atMost === Infinity ? `at least ${atLeast}` : `${atLeast} to ${atMost}`
    throw new UsageError(
      `${command} takes ${expected} argument${atMost === 1 ? '' : 's'} (${names.join(' ')}); received ${positionals.length}${positionals.length ? `: ${positionals.map((p) => JSON.stringify(p)).join(' ')}` : ''}\nRun "botshelf ${command} --help" for usage.`,
    )
  }
}
