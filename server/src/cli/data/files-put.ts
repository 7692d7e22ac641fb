import { createReadStream } from 'node:fs'
import type { Subcommand } from '../command-group.js'
import { expectPositionals, parseSubcommand } from '../command-group.js'
import { describeFailure } from '../failure.js'
import { exitCodes } from '../exit-codes.js'
import { UsageError } from '../io.js'
import { createProgress, escapeControls } from '../output/index.js'
import { formatBytes } from '../output/units.js'
import { connectionHelp } from './connection-help.js'
import { connectionOptions } from './connection.js'
import { parseIntegerOption, parseTagOptions } from './json-input.js'
import { eachLimited, localFiles, type LocalFile } from './local-tree.js'
import { runDataCommand, throwIfInterrupted } from './run-data-command.js'

/**
 * `botshelf files put <file or folder> [--prefix P] [--key K] [--tag k=v]... [--index]`: uploads a file, or a folder
 * recursively (key = P + the path relative to the folder), several at once, with progress in bytes and files.
 *
 * @example
 * ```ts
 * await filesPut.run(['./docs', '--prefix', 'docs/', '--tag', 'kind=doc'], io)
 * ```
 */
export const filesPut: Subcommand = {
  name: 'put',
  usage: 'botshelf files put <file or folder> [--prefix P] [--key K] [--tag KEY=VALUE]... [--index] [--json]',
  help: `Uploads a file, or every file of a folder and its subfolders. The key of each file is the prefix
followed by its path relative to the folder (a single file: the prefix and its name, or --key).
An existing key gets a new version. A file becomes visible only once all its bytes are stored:
Ctrl-C never leaves a half-written file, and the files already uploaded stay complete.

Options:
  --prefix <p>        put before every key (like docs/; default none)
  --key <k>           the key of a single file (instead of prefix + name)
  --tag <key=value>   tag every uploaded file (repeatable)
  --index             index the files for search (botshelf files search); they are searchable once indexed
  --parallel <n>      files uploaded at once (1 to 16, default 4)
  --json              print the uploaded files as JSON (key, id, size) on standard output
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('files', filesPut, args, io, {
      ...connectionOptions,
      prefix: { type: 'string' },
      key: { type: 'string' },
      tag: { type: 'string', multiple: true },
      index: { type: 'boolean' },
      parallel: { type: 'string' },
      json: { type: 'boolean' },
    })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('files put', positionals, ['<file or folder>'])
    const tags = parseTagOptions(values.tag)
    const parallel = parseIntegerOption('--parallel', values.parallel, 1, 16) ?? 4
    const prefix = values.prefix ?? ''
    const { files, isFolder } = await localFiles(positionals[0]!, (path, why) => io.stderr.write(`skipped ${path}: ${why}\n`))
    if (values.key !== undefined && isFolder) throw new UsageError('--key names a single file; for a folder use --prefix')
    if (values.key !== undefined && values.prefix !== undefined) throw new UsageError('--key and --prefix exclude each other')
    const keyOf = (file: LocalFile): string => values.key ?? `${prefix}${file.relativePath}`

    return runDataCommand(values, io, async ({ client, signal }) => {
      const totalBytes = files.reduce((sum, f) => sum + f.size, 0)
      const progress = createProgress(io, { label: 'put', unit: 'bytes', total: totalBytes })
      const uploaded: Array<{ key: string; id: string; size: number }> = []
      const note = () => `${uploaded.length}/${files.length} files`
      const failures = await eachLimited(files, parallel, () => signal.aborted, async (file) => {
        throwIfInterrupted(signal)
        const counted = countingStream(file.path, (bytes) => progress.advance(bytes))
        const { file: stored } = await client.uploadFile(
          { key: keyOf(file), content: counted, size: file.size, ...(Object.keys(tags).length > 0 ? { tags } : {}), ...(values.index ? { index: true } : {}) },
          { signal },
        )
        uploaded.push({ key: stored.key, id: stored.id, size: file.size })
        progress.advance(0, note())
      })
      if (signal.aborted) {
        progress.stop()
        io.stderr.write(`put: interrupted after ${uploaded.length} of ${files.length} files; those are complete, the uploads in flight were abandoned and are not visible\n`)
        if (values.json) io.stdout.write(`${JSON.stringify(uploaded, null, 2)}\n`)
        return exitCodes.interrupted
      }
      const uploadedBytes = uploaded.reduce((sum, f) => sum + f.size, 0)
      progress.done(`uploaded ${uploaded.length} of ${files.length} file${files.length === 1 ? '' : 's'} (${formatBytes(uploadedBytes)})`)
      for (const { item, error } of failures) io.stderr.write(`put: ${escapeControls(item.path)} failed: ${escapeControls(describeFailure(error).message)}\n`)
      if (values.json) io.stdout.write(`${JSON.stringify(uploaded, null, 2)}\n`)
      return failures.length > 0 ? exitCodes.failure : exitCodes.ok
    })
  },
}

/** The file's bytes as a stream that reports each chunk as it is read (that is, as the upload sends it). */
async function* countingStream(path: string, onChunk: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  for await (const chunk of createReadStream(path)) {
    const bytes = chunk as Buffer
    onChunk(bytes.byteLength)
    yield bytes
  }
}
