import { groupHelp, runGroup, type Subcommand } from '../command-group.js'
import type { CliIo } from '../io.js'
import { filesCp } from './files-cp.js'
import { filesGet } from './files-get.js'
import { filesLs } from './files-ls.js'
import { filesPut } from './files-put.js'
import { filesRm } from './files-rm.js'
import { filesPassages, filesSearch } from './files-search.js'
import { filesTag } from './files-tag.js'

const filesSubcommands: readonly Subcommand[] = [filesLs, filesPut, filesGet, filesRm, filesCp, filesTag, filesSearch, filesPassages]
const summary = 'Works with the files of a bot on any botshelf (or compatible) service.'

/**
 * Help text of `botshelf files`.
 *
 * @example
 * ```ts
 * process.stdout.write(filesHelp)
 * ```
 */
export const filesHelp = groupHelp('files', summary, filesSubcommands)

/**
 * Runs `botshelf files <ls|put|get|rm|cp|tag|search|passages>`. Resolves with the exit code.
 *
 * @example
 * ```ts
 * await filesCommand(['ls', '--json'], { stdout: process.stdout, stderr: process.stderr })
 * ```
 */
export function filesCommand(args: string[], io: CliIo): Promise<number> {
  return runGroup('files', summary, filesSubcommands, args, io)
}
