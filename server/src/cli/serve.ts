import { createServer, type RunningServer } from '../http/server.js'
import { describeRateLimits } from '../http/rate-limit/index.js'
import { parseCommandArgs } from './args.js'
import { envOf, type CliIo } from './io.js'
import { noteDataFolder } from './fresh-data-folder.js'
import { embedderFromCli } from './embedder-options.js'
import { describeStorage, openStorage } from './storage-options.js'
import { createOpenAiCompatibleLanguageModel, unconfiguredLanguageModel } from '../language-model/index.js'
import { readServeSettings, renderSettingsHelp, serveSettings, settingArgOptions } from './settings/index.js'

/**
 * Help text of `botshelf serve`.
 *
 * @example
 * ```ts
 * process.stdout.write(serveHelp)
 * ```
 */
export const serveHelp = `Usage: botshelf serve [--port 3000] [--host 127.0.0.1] [--data ./.botshelf] [--database URL] [--blobs URL] [--public-url URL] [--cors-origin ORIGIN]... [--shutdown-grace 10] [--job-lease 30] [--expiry-sweep 60] [--webhook-retries 5s,30s,...] [--webhook-hosts HOSTS] [--rate-limit SPEC] [--log-level LEVEL] [--log-format pretty|json] [--metrics-port N] [--embeddings-url URL --embeddings-model NAME] [--llm-url URL --llm-model NAME]

Runs the Files and Tables service on the embedded store (SQLite + a content folder in --data), or on
PostgreSQL (--database), which any number of servers can share.
The first start creates a workspace, a bot and a bot token, and prints them once, with a one-time
sign-in link to the web console (served at /console).

Options:
${renderSettingsHelp(serveSettings, 'options')}

Search embeddings (a flag wins over its variable; without a URL the offline default is used):
${renderSettingsHelp(serveSettings, 'embeddings')}

Language model of AI columns (an OpenAI-compatible chat API; a flag wins over its variable):
${renderSettingsHelp(serveSettings, 'language-model')}

Storage quotas of the workspace:
${renderSettingsHelp(serveSettings, 'quotas')}

  -h, --help          show this help

Request logs go to standard output (one line per request); messages go to standard error.
SIGINT/SIGTERM stop the server gracefully: no new connections; requests in flight get --shutdown-grace
seconds to finish, then their connections are cut. A second signal exits at once.`

/** A started `serve` command: the server and a promise that settles when it has shut down. */
export interface ServeHandle {
  server: RunningServer
  /** Resolves with the exit code after a graceful shutdown. */
  done: Promise<number>
  /** Stops the server as a signal would. */
  stop(): Promise<void>
}

/**
 * Runs `botshelf serve`: starts the server, bootstraps the data folder on first start, prints the banner,
 * and shuts down gracefully on SIGINT/SIGTERM: requests in flight get `--shutdown-grace` seconds (default 10)
 * before their connections are cut; a second signal exits at once.
 *
 * @example
 * ```ts
 * const handle = await serveCommand(['--port', '0', '--data', dir], { stdout: process.stdout, stderr: process.stderr })
 * await handle.stop()
 * ```
 */
export async function serveCommand(args: string[], io: CliIo, handleSignals = true): Promise<ServeHandle | undefined> {
  const { values } = parseCommandArgs(args, { ...settingArgOptions(serveSettings), help: { type: 'boolean', short: 'h' } }, 'serve')
  if (values.help) {
    io.stdout.write(`${serveHelp}\n`)
    return undefined
  }
  // The environment is read here, once, and passed down to everything that reads a variable.
  const env = envOf(io)
  const settings = readServeSettings(values, env, io.stdout)
  const { port, host, metricsPort, logger, shutdownGraceMs, rateLimit, jobLeaseMs, expirySweepIntervalMs, quotas, storage, publicUrl, corsOrigins } = settings
  const search = await embedderFromCli(settings.embeddings, env)
  const folder = noteDataFolder(storage.dataDir)
  // A database is opened here and closed after the server; the embedded store is the server's own (it locks the folder).
  const backend = storage.databaseUrl !== undefined ? await openStorage(storage) : undefined
  const languageModel = settings.languageModel ? createOpenAiCompatibleLanguageModel(settings.languageModel) : undefined
  let server: RunningServer
  try {
    server = await createServer({
      indexing: { embedder: search.embedder },
      languageModel: languageModel ?? unconfiguredLanguageModel,
      port,
      host,
      ...(backend ? { backend } : { dataDir: storage.dataDir }),
      shutdownGraceMs,
      logger,
      ...(metricsPort !== undefined ? { metricsPort } : {}),
      ...(publicUrl !== undefined ? { publicUrl } : {}),
      ...(corsOrigins.length > 0 ? { corsOrigins } : {}),
      ...(rateLimit !== undefined ? { rateLimit } : {}),
      ...(quotas ? { quotas } : {}),
      ...(jobLeaseMs !== undefined ? { jobs: { leaseMs: jobLeaseMs } } : {}),
      ...(expirySweepIntervalMs !== undefined ? { expirySweepIntervalMs } : {}),
      // Delivery jobs are taken over after a crash on the same lease as every other job.
      webhooks: { ...settings.webhooks, ...(jobLeaseMs !== undefined ? { leaseMs: jobLeaseMs } : {}) },
    })
  } catch (error) {
    // A failed start leaves no trace: a database opened for it is closed, a data folder made for it removed.
    await backend?.close()
    await folder.removeIfNew()
    throw error
  }
  const boot = await server.app.admin.bootstrap()
  const base = publicUrl ?? server.url
  const lines = [
    `botshelf is listening on ${server.url}`,
    ...(storage.databaseUrl !== undefined
      ? [`  database:    ${describeStorage(storage)}`]
      : [`  data folder: ${server.app.services.dataDir}`]),
    `  rate limits: ${describeRateLimits(server.app.rateLimits)}`,
    `  metrics:     ${server.metricsUrl ?? server.url}/metrics (workspace administrator token)`,
    `  search:      ${search.description}`,
    `  AI columns:  ${languageModel ? languageModel.label : 'no language model (set --llm-url and --llm-model)'}`,
    `  bot id:      ${boot.bot.id}`,
  ]
  if (boot.token) {
    lines.push(
      `  bot token:   ${boot.token.token}`,
      '  (shown once: it is stored only as a hash; make more with "botshelf token create")',
      '',
      'Try it:',
      `  curl -H "Authorization: Bearer ${boot.token.token}" -H "x-bot-id: ${boot.bot.id}" ${base}/v1/files`,
      `  BP_API_URL=${base} BP_TOKEN=${boot.token.token} BP_BOT_ID=${boot.bot.id} node -e "new (require('@botpress/client').Client)().listFiles({}).then(console.log)"`,
      '',
      `Web console (a one-time sign-in link, valid 24 h while this server runs):`,
      `  ${base}/console/#sign-in=${server.app.admin.issueSignInCode().code}`,
    )
  } else {
    lines.push('  tokens:      use the token printed on first start, or "botshelf token create --bot <bot id> --role bot"')
    lines.push(`  console:     ${base}/console/ (sign in with a token; "botshelf token create --workspace --role administrator" makes one)`)
  }
  io.stderr.write(`${lines.join('\n')}\n`)

  let resolveDone: (code: number) => void = () => {}
  const done = new Promise<number>((resolve) => (resolveDone = resolve))
  let stopping: Promise<void> | undefined
  const stop = (): Promise<void> => {
    stopping ??= server.close().then(() => backend?.close()).then(
      () => {
        io.stderr.write('botshelf stopped\n')
        resolveDone(0)
      },
      (error: unknown) => {
        io.stderr.write(`botshelf failed to stop cleanly: ${error instanceof Error ? error.message : String(error)}\n`)
        resolveDone(1)
      },
    )
    return stopping
  }
  if (handleSignals) {
    let signals = 0
    const onSignal = (signal: NodeJS.Signals) => {
      signals += 1
      if (signals > 1) {
        io.stderr.write(`${signal} again: exiting now\n`)
        process.exit(1)
      }
      io.stderr.write(`${signal}: finishing requests in flight (up to ${shutdownGraceMs / 1000} s), then stopping\n`)
      void stop()
    }
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
    void done.then(() => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    })
  }
  return { server, done, stop }
}
