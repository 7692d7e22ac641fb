import { stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { File } from 'botshelf/client'
import type { Subcommand } from '../command-group.js'
import { expectPositionals, parseSubcommand } from '../command-group.js'
import { describeFailure } from '../failure.js'
import { exitCodes } from '../exit-codes.js'
import { createProgress, escapeControls } from '../output/index.js'
import { formatBytes } from '../output/units.js'
import { connectionHelp } from './connection-help.js'
import { connectionOptions } from './connection.js'
import { downloadToFile } from './download-to-file.js'
import { listFilesUnder } from './files-list.js'
import { parseIntegerOption } from './json-input.js'
import { eachLimited } from './local-tree.js'
import { runDataCommand } from './run-data-command.js'

/**
 * The local path of a key below a prefix, or a reason to refuse it: keys are names, not paths, so a key that
 * would climb out of the destination (`..`), be absolute, or hold empty segments is not written.
 *
 * @example
 * ```ts
 * localPathOf('docs/', 'docs/a/b.md') // { path: 'a/b.md' }
 * localPathOf('', '../etc/passwd') // { refused: 'it would leave the destination folder' }
 * ```
 */
export function localPathOf(prefix: string, key: string): { path: string } | { refused: string } {
  const relative = key.slice(prefix.length)
  const segments = relative.split('/')
  if (relative === '' || segments.some((s) => s === '')) return { refused: 'it has an empty path segment' }
  if (segments.some((s) => s === '..' || s === '.')) return { refused: 'it would leave the destination folder' }
  if (/^[a-zA-Z]:/.test(relative) || relative.includes('\\') || relative.includes('\0')) return { refused: 'it is not a portable relative path' }
  return { path: segments.join('/') }
}

/**
 * `botshelf files get <key, or a prefix ending in /> <destination>`: downloads a file, or every file under a
 * prefix recreating their relative paths, through temporary files renamed when complete.
 *
 * @example
 * ```ts
 * await filesGet.run(['docs/', './out'], io)
 * ```
 */
export const filesGet: Subcommand = {
  name: 'get',
  usage: 'botshelf files get <key, or a prefix ending in /> <destination> [--parallel N]',
  help: `Downloads a file to <destination> (a file path, or an existing folder to put it in), or, when the first
argument ends in /, every file whose key starts with it into the folder <destination>, recreating the
paths after the prefix ("/" alone: every file). Each download goes to a temporary file renamed once complete:
an interrupted or failed download leaves no partial file. Keys that would climb out of the folder are refused.

Options:
  --parallel <n>      files downloaded at once (1 to 16, default 4)
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('files', filesGet, args, io, { ...connectionOptions, parallel: { type: 'string' } })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('files get', positionals, ['<key or prefix/>', '<destination>'])
    const [source, destination] = positionals as [string, string]
    const parallel = parseIntegerOption('--parallel', values.parallel, 1, 16) ?? 4
    return runDataCommand(values, io, async ({ client, signal }) => {
      if (!source.endsWith('/')) {
        const { file } = await client.getFile({ id: source }, { signal })
        const target = (await isFolder(destination)) || destination.endsWith('/') ? join(destination, basename(file.key)) : destination
        const progress = createProgress(io, { label: 'get', unit: 'bytes', ...(file.size !== null ? { total: file.size } : {}) })
        try {
          const bytes = await downloadToFile(client, file.key, target, signal, (n) => progress.advance(n))
          progress.done(`downloaded ${escapeControls(file.key)} to ${target} (${formatBytes(bytes)})`)
        } catch (error) {
          progress.stop()
          throw error
        }
        return exitCodes.ok
      }
      const prefix = source === '/' ? '' : source
      const listed = await listFilesUnder(client, prefix, {}, signal)
      const wanted: Array<{ file: File; path: string }> = []
      for (const file of listed) {
        const local = localPathOf(prefix, file.key)
        if ('refused' in local) io.stderr.write(`get: skipped ${JSON.stringify(file.key)}: ${local.refused}\n`)
        else if (file.status !== 'upload_completed') io.stderr.write(`get: skipped ${JSON.stringify(file.key)}: its content is not uploaded (${file.status})\n`)
        else wanted.push({ file, path: join(destination, local.path) })
      }
      if (listed.length === 0) {
        // Nothing to download is not a success: the prefix is likely mistyped.
        io.stderr.write(`get: no file's key starts with ${JSON.stringify(prefix)}; nothing was downloaded (see "botshelf files ls")\n`)
        return exitCodes.failure
      }
      const total = wanted.reduce((sum, w) => sum + (w.file.size ?? 0), 0)
      const progress = createProgress(io, { label: 'get', unit: 'bytes', total })
      let downloaded = 0
      let bytes = 0
      const failures = await eachLimited(wanted, parallel, () => signal.aborted, async ({ file, path }) => {
        const written = await downloadToFile(client, file.key, path, signal, (n) => progress.advance(n))
        bytes += written
        downloaded += 1
        progress.advance(0, `${downloaded}/${wanted.length} files`)
      })
      if (signal.aborted) {
        progress.stop()
        io.stderr.write(`get: interrupted after ${downloaded} of ${wanted.length} files; those are complete, no partial file was left\n`)
        return exitCodes.interrupted
      }
      progress.done(`downloaded ${downloaded} of ${wanted.length} file${wanted.length === 1 ? '' : 's'} to ${destination} (${formatBytes(bytes)})`)
      for (const { item, error } of failures) io.stderr.write(`get: ${escapeControls(item.file.key)} failed: ${escapeControls(describeFailure(error).message)}\n`)
      return failures.length > 0 ? exitCodes.failure : exitCodes.ok
    })
  },
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}
