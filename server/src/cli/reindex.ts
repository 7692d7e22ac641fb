import cliProgress from 'cli-progress'
import { reembedStaleFiles, type ReembedProgress } from '../search/indexing/index.js'
import { parseCommandArgs } from './args.js'
import { embedderArgOptions, embedderFlagsHelp, embedderFromCli } from './embedder-options.js'
import { UsageError, type CliIo } from './io.js'
import { openAuthStore } from './open-store.js'
import type { SqliteBackend } from '../store/open-backend.js'

/**
 * Help text of `botshelf reindex`.
 *
 * @example
 * ```ts
 * process.stdout.write(reindexHelp)
 * ```
 */
export const reindexHelp = `Usage: botshelf reindex [--data ./.botshelf] [--embeddings-url URL --embeddings-model NAME] [--batch-size 32]

Re-embeds every indexed file whose passages were embedded by another embedder than the configured one (or by
none): run it after changing the embeddings model or service. Give it the same --embeddings-* flags (or
BOTSHELF_EMBEDDINGS_* variables) as "botshelf serve". The passages' text is kept; only their vectors are made
again, file by file. Until a file is done, search finds it by its words. Stopping it (Ctrl-C) loses nothing:
the next run goes on with the files left. Works while the server runs. On the embedded database it then
rebuilds the vector lists (the approximate search stage) of bots holding 20,000 vectors or more.

Options:
  --data <dir>        data folder (default ./.botshelf)
  --batch-size <n>    passages per embedding call (default 32)
${embedderFlagsHelp}
  -h, --help          show this help

A progress bar on a terminal; otherwise one line per file on standard error.`

/**
 * Runs `botshelf reindex`: re-embeds the passages of every file whose vectors another embedder made. Returns the exit
 * code.
 *
 * @example
 * ```ts
 * await reindexCommand(['--data', './.botshelf', '--embeddings-url', 'http://127.0.0.1:11434/v1', '--embeddings-model', 'nomic-embed-text'], io)
 * ```
 */
export async function reindexCommand(args: string[], io: CliIo, env: Readonly<Record<string, string | undefined>> = process.env): Promise<number> {
  const { values } = parseCommandArgs(
    args,
    { data: { type: 'string' }, 'batch-size': { type: 'string' }, ...embedderArgOptions, help: { type: 'boolean', short: 'h' } },
    'reindex',
  )
  if (values.help) {
    io.stdout.write(`${reindexHelp}\n`)
    return 0
  }
  const batchSize = parseBatchSize(values['batch-size'])
  const { embedder, description } = await embedderFromCli(values, env)
  if (!embedder) {
    io.stderr.write(`botshelf: no embedder to reindex with: ${description}\n`)
    return 1
  }
  const { backend } = await openAuthStore(values.data ?? './.botshelf').catch(async (error: unknown) => {
    await embedder.close?.()
    throw error
  })
  const report = progressReporter(io)
  try {
    io.stderr.write(`reindex with ${description}\n`)
    const done = await reembedStaleFiles(backend, embedder, { batchSize, onProgress: report.update })
    report.stop()
    io.stderr.write(
      done.files === 0
        ? `nothing to do: every indexed passage already has vectors of ${done.embedderId}\n`
        : `re-embedded ${done.passages} passage(s) of ${done.files} file(s) with ${done.embedderId}\n`,
    )
    if (done.files > 0 && 'vectorLists' in backend) {
      // The embedded index's approximate stage (decision 0821): lists of the new vectors, trained before exiting.
      io.stderr.write('rebuilding the vector lists of bots past the approximate search threshold\n')
      await (backend as SqliteBackend).vectorLists.rebuildAll()
    }
    return 0
  } finally {
    report.stop()
    await embedder.close?.()
    await backend.close()
  }
}

function parseBatchSize(text: string | undefined): number {
  if (text === undefined) return 32
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 2048) {
    throw new UsageError(`--batch-size: expected an integer from 1 to 2048, received ${JSON.stringify(text)}`)
  }
  return Number(text)
}

/** A progress bar when standard error is a terminal, plain lines otherwise (logs, CI, pipes). */
function progressReporter(io: CliIo): { update(progress: ReembedProgress): void; stop(): void } {
  const terminal = (io.stderr as { isTTY?: boolean }).isTTY === true
  if (terminal) {
    const bar = new cliProgress.SingleBar(
      { stream: io.stderr as NodeJS.WritableStream, format: 'reindex [{bar}] {percentage}% | {value}/{total} passages | {files}/{totalFiles} files | eta {eta_formatted}', hideCursor: true },
      cliProgress.Presets.shades_classic,
    )
    let started = false
    let stopped = false
    return {
      update(progress) {
        if (!started) {
          started = true
          bar.start(progress.totalPassages, 0, { files: 0, totalFiles: progress.totalFiles })
        }
        bar.update(progress.passages, { files: progress.files, totalFiles: progress.totalFiles })
      },
      stop() {
        if (started && !stopped) bar.stop()
        stopped = true
      },
    }
  }
  return {
    update(progress) {
      if (progress.fileId === '') io.stderr.write(`reindex: ${progress.totalFiles} file(s), ${progress.totalPassages} passage(s) to re-embed\n`)
      else io.stderr.write(`reindex: ${progress.files}/${progress.totalFiles} files, ${progress.passages}/${progress.totalPassages} passages (${progress.fileId})\n`)
    },
    stop() {},
  }
}
