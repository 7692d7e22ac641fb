import { groupHelp, runGroup, type Subcommand } from '../command-group.js'
import type { CliIo } from '../io.js'
import { tablesExport } from './tables-export.js'
import { tablesFind } from './tables-find.js'
import { tablesImport } from './tables-import.js'
import { tablesCreate, tablesDescribe, tablesInsert, tablesLs, tablesRm } from './tables-simple.js'

const tablesSubcommands: readonly Subcommand[] = [tablesLs, tablesCreate, tablesDescribe, tablesFind, tablesInsert, tablesImport, tablesExport, tablesRm]
const summary = 'Works with the tables of a bot on any botshelf (or compatible) service.'

/**
 * Help text of `botshelf tables`.
 *
 * @example
 * ```ts
 * process.stdout.write(tablesHelp)
 * ```
 */
export const tablesHelp = groupHelp('tables', summary, tablesSubcommands)

/**
 * Runs `botshelf tables <ls|create|describe|find|insert|import|export|rm>`. Resolves with the exit code.
 *
 * @example
 * ```ts
 * await tablesCommand(['find', 'ordersTable', '--json'], { stdout: process.stdout, stderr: process.stderr })
 * ```
 */
export function tablesCommand(args: string[], io: CliIo): Promise<number> {
  return runGroup('tables', summary, tablesSubcommands, args, io)
}
