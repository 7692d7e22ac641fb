import { createReadStream } from 'node:fs'
import type { Client } from 'botshelf/client'
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
      const startedAt = Date.now()
      // Uploads begun and not acknowledged: what an interrupt must settle.
      const inFlight = new Map<string, LocalFile>()
      const note = () => `${uploaded.length}/${files.length} files`
      const failures = await eachLimited(files, parallel, () => signal.aborted, async (file) => {
        throwIfInterrupted(signal)
        inFlight.set(keyOf(file), file)
        // No progress once interrupted: the bar is gone and the summary is the last line.
        const counted = countingStream(file.path, (bytes) => {
          if (!signal.aborted) progress.advance(bytes)
        })
        const { file: stored } = await client.uploadFile(
          { key: keyOf(file), content: counted, size: file.size, ...(Object.keys(tags).length > 0 ? { tags } : {}), ...(values.index ? { index: true } : {}) },
          { signal },
        )
        inFlight.delete(stored.key)
        uploaded.push({ key: stored.key, id: stored.id, size: file.size })
        if (!signal.aborted) progress.advance(0, note())
      })
      if (signal.aborted) {
        progress.stop()
        const settled = await settleInFlight(client, inFlight, startedAt)
        for (const done of settled.completed) uploaded.push(done)
        const parts = [`put: interrupted after ${uploaded.length} of ${files.length} files; those are complete`]
        if (settled.completed.length > 0) parts.push(`${settled.completed.length} of them reached the service whole while stopping`)
        if (settled.deleted > 0) parts.push(`${settled.deleted} upload${settled.deleted === 1 ? '' : 's'} in flight ${settled.deleted === 1 ? 'was' : 'were'} stopped and ${settled.deleted === 1 ? 'its record' : 'their records'} deleted`)
        parts.push(...settled.left)
        io.stderr.write(`${parts.join('; ')}\n`)
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

/** How far the service's clock may be behind this machine's when telling a record this run created. */
const CLOCK_TOLERANCE_MS = 2000

/**
 * After an interrupt, settles each upload that was begun and not acknowledged: one the service completed anyway
 * counts as uploaded; a record this run created (its `createdAt` not before the command started, give or take
 * {@link CLOCK_TOLERANCE_MS}) whose content did not arrive is deleted, so no half-upload stays listed; a new version
 * of a file that existed before is left to the service, and said so.
 * Runs without the interrupted signal: that is the point.
 *
 * @example
 * ```ts
 * const { completed, deleted } = await settleInFlight(client, new Map([['docs/a.md', localFile]]), Date.now())
 * ```
 */
async function settleInFlight(
  client: Client,
  inFlight: ReadonlyMap<string, LocalFile>,
  startedAt: number,
): Promise<{ completed: Array<{ key: string; id: string; size: number }>; deleted: number; left: string[] }> {
  const completed: Array<{ key: string; id: string; size: number }> = []
  const left: string[] = []
  let deleted = 0
  for (const [key, local] of inFlight) {
    const found = await client.getFile({ id: key }).then(({ file }) => file, () => undefined)
    if (!found) continue
    if (found.status === 'upload_completed') completed.push({ key, id: found.id, size: local.size })
    else if (Date.parse(found.createdAt) >= startedAt - CLOCK_TOLERANCE_MS) {
      await client.deleteFile({ id: found.id }).then(
        () => (deleted += 1),
        (error: unknown) => left.push(`${key}: its record could not be deleted (${describeFailure(error).message})`),
      )
    } else left.push(`${key}: a new version was cut short; its earlier version stays`)
  }
  return { completed, deleted, left }
}
