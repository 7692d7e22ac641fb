import { createServer, type RunningServer } from '../http/server.js'
import { describeRateLimits } from '../http/rate-limit/index.js'
import { parseQuotaFlags, quotaFlags, quotaFlagsHelp } from './quota-flags.js'
import { backgroundOptions } from './background-options.js'
import { parseCommandArgs, parsePort, parseRateLimit, parseShutdownGrace } from './args.js'
import { envOf, UsageError, type CliIo } from './io.js'
import { noteDataFolder } from './fresh-data-folder.js'
import { serveLogger } from './serve-logging.js'
import { embedderArgOptions, embedderFlagsHelp, embedderFromCli } from './embedder-options.js'
import { describeStorage, openStorage, resolveStorage, storageOptionTable } from './storage-options.js'

/**
 * Help text of `botshelf serve`.
 *
 * @example
 * ```ts
 * process.stdout.write(serveHelp)
 * ```
 */
export const serveHelp = `Usage: botshelf serve [--port 3000] [--host 127.0.0.1] [--data ./.botshelf] [--database URL] [--blobs URL] [--public-url URL] [--cors-origin ORIGIN]... [--shutdown-grace 10] [--job-lease 30] [--expiry-sweep 60] [--rate-limit SPEC] [--log-level LEVEL] [--log-format pretty|json] [--metrics-port N] [--embeddings-url URL --embeddings-model NAME]

Runs the Files and Tables service on the embedded store (SQLite + a content folder in --data), or on
PostgreSQL (--database), which any number of servers can share.
The first start creates a workspace, a bot and a bot token, and prints them once, with a one-time
sign-in link to the web console (served at /console).

Options:
  --port <n>          TCP port (default 3000; 0 picks a free one)
  --host <addr>       interface to bind (default 127.0.0.1; 0.0.0.0 for every interface)
  --data <dir>        data folder (default ./.botshelf); with --database, only file content goes there
  --database <url>    PostgreSQL for metadata, rows and jobs: postgres://user:password@host:5432/db
  --blobs <url>       file content in S3 (with --database): s3://bucket/optional/prefix; also
                      BOTSHELF_BLOBS_URL, BOTSHELF_S3_ENDPOINT, BOTSHELF_S3_FORCE_PATH_STYLE, AWS_*
                      (default: the BOTSHELF_DATABASE_URL variable; none: SQLite in --data)
  --public-url <url>  base of the absolute URLs the service returns (default: the request's origin)
  --cors-origin <o>   let browser pages from this origin call the service (repeatable; "*" for any)
  --shutdown-grace <s>
                      seconds SIGINT/SIGTERM lets requests in flight (long uploads) finish before
                      cutting their connections (default 10; 0 cuts at once; decimals allowed)
  --job-lease <s>     seconds a background job (indexing, import, export, expiry) stays a server's own
                      between renewals (default 30; 0.5 to 3600; or BOTSHELF_JOB_LEASE): when a server
                      dies, another takes its jobs over once the lease has run out
  --expiry-sweep <s>  seconds between passes that delete expired files (default 60; 1 to 86400; or
                      BOTSHELF_EXPIRY_SWEEP); servers sharing a database run one pass per interval
  --rate-limit <spec> request rate limits: "off", or comma-separated settings:
                        <n>/s, <n>/m or <n>/h   sustained rate per token (default 100/s)
                        burst=<n>               requests a token may send at once (default 500;
                                                five seconds' worth when only a rate is given)
                        token=off               no limit per token
                        ip=<rate> | ip=off      rate per client IP address on the routes without
                                                a token: signed content URLs, /, /health (default 200/s)
                        ip-burst=<n>            (default 1000)
                      e.g. --rate-limit 50/s,burst=200   --rate-limit ip=off   --rate-limit off
                      Over the limit: 429 RateLimited with Retry-After.
  --log-level <l>     debug, info (default), warn, error or silent (or BOTSHELF_LOG_LEVEL). Requests answered
                      5xx are logged at error, those slower than 1 s at warn, the others (4xx too) at info
  --log-format <f>    pretty (default on a terminal) or json (default otherwise; or BOTSHELF_LOG_FORMAT)
  --metrics-port <n>  serve GET /metrics on this port (same --host) instead of the service's port
                      (readable with a workspace administrator token: token create --workspace --role administrator)

Search embeddings (a flag wins over its variable; without a URL the offline default is used):
${embedderFlagsHelp}
${quotaFlagsHelp}
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
  const { values } = parseCommandArgs(
    args,
    {
      port: { type: 'string' },
      host: { type: 'string' },
      ...storageOptionTable,
      'public-url': { type: 'string' },
      'cors-origin': { type: 'string', multiple: true },
      'shutdown-grace': { type: 'string' },
      'job-lease': { type: 'string' },
      'expiry-sweep': { type: 'string' },
      'rate-limit': { type: 'string' },
      'log-level': { type: 'string' },
      'log-format': { type: 'string' },
      'metrics-port': { type: 'string' },
      ...embedderArgOptions,
      ...quotaFlags,
      help: { type: 'boolean', short: 'h' },
    },
    'serve',
  )
  if (values.help) {
    io.stdout.write(`${serveHelp}\n`)
    return undefined
  }
  const port = parsePort(values.port, 3000)
  const metricsPort = values['metrics-port'] !== undefined ? parsePort(values['metrics-port'], 0, '--metrics-port') : undefined
  const { logger } = serveLogger(values, io)
  const shutdownGraceMs = parseShutdownGrace(values['shutdown-grace'], 10_000)
  const rateLimit = parseRateLimit(values['rate-limit'])
  const { jobLeaseMs, expirySweepIntervalMs } = backgroundOptions(values, envOf(io))
  const quotas = parseQuotaFlags(values)
  const host = values.host ?? '127.0.0.1'
  const storage = resolveStorage(values)
  const publicUrl = values['public-url']?.replace(/\/+$/, '')
  if (publicUrl !== undefined && !/^https?:\/\/[^/]+/.test(publicUrl)) {
    throw new UsageError(`--public-url must be an absolute http(s) URL, received ${JSON.stringify(publicUrl)}`)
  }

  const corsOrigins = values['cors-origin'] ?? []
  for (const origin of corsOrigins) {
    if (origin !== '*' && !/^https?:\/\/[^/]+$/.test(origin)) {
      throw new UsageError(`--cors-origin must be an origin like http://localhost:5173 (no path) or "*", received ${JSON.stringify(origin)}`)
    }
  }
  const search = await embedderFromCli(values, process.env)
  const folder = noteDataFolder(storage.dataDir)
  // A database is opened here and closed after the server; the embedded store is the server's own (it locks the folder).
  const backend = storage.databaseUrl !== undefined ? await openStorage(storage) : undefined
  let server: RunningServer
  try {
    server = await createServer({
      indexing: { embedder: search.embedder },
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
