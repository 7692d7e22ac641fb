import { embedderFlags } from '../../search/embedding/index.js'
import { languageModelFlags } from '../../language-model/index.js'
import type { Setting } from './setting.js'

/** The defaults of the embeddings settings, as docs/server.md shows them (the service adapter's own defaults). */
const EMBEDDINGS_DEFAULTS: Record<keyof typeof embedderFlags, string> = {
  'embeddings-url': 'the offline embedder',
  'embeddings-model': 'none',
  'embeddings-api-key': 'none',
  'embeddings-query-prefix': 'none',
  'embeddings-passage-prefix': 'none',
  'embeddings-batch-size': '`64`',
  'embeddings-timeout-ms': '`30000`',
  'embeddings-max-retries': '`3`',
}

/**
 * The embeddings settings, taken from the embedder's own flag table (it names the variables
 * `embedderOptionsFromEnv` reads): `serve` and `reindex` take them alike.
 *
 * @example
 * ```ts
 * renderSettingsHelp(embeddingsSettings, 'embeddings')
 * ```
 */
export const embeddingsSettings = (Object.keys(embedderFlags) as Array<keyof typeof embedderFlags>).map(
  (flag): Setting & { flag: keyof typeof embedderFlags } => ({
    flag,
    value: '<value>',
    variable: embedderFlags[flag].env,
    default: EMBEDDINGS_DEFAULTS[flag],
    help: [`${embedderFlags[flag].description} (${embedderFlags[flag].env})`],
    docs: embedderFlags[flag].description,
    section: 'embeddings',
  }),
)

/** The defaults of the language-model settings, as docs/server.md shows them. */
const LANGUAGE_MODEL_DEFAULTS: Record<keyof typeof languageModelFlags, string> = {
  'llm-url': 'none: AI columns fail saying so',
  'llm-api-key': 'none',
  'llm-model': 'none',
}

/**
 * The language-model settings (AI columns), taken from the port's own flag table (it names the variables
 * `languageModelOptionsFromEnv` reads).
 *
 * @example
 * ```ts
 * renderSettingsHelp(languageModelSettings, 'language-model')
 * ```
 */
export const languageModelSettings = (Object.keys(languageModelFlags) as Array<keyof typeof languageModelFlags>).map(
  (flag): Setting & { flag: keyof typeof languageModelFlags } => ({
    flag,
    value: '<value>',
    variable: languageModelFlags[flag].env,
    default: LANGUAGE_MODEL_DEFAULTS[flag],
    help: [`${languageModelFlags[flag].description} (${languageModelFlags[flag].env})`],
    docs: languageModelFlags[flag].description,
    section: 'language-model',
  }),
)

/**
 * Every option of `botshelf serve`, once: its flag, its variable, its default and its help. The parser
 * (`readServeSettings`), `serve --help` and the option table of docs/server.md are made from this list (a test
 * checks that the docs list the same options).
 *
 * @example
 * ```ts
 * serveSettings.find((setting) => setting.flag === 'job-lease')?.variable // 'BOTSHELF_JOB_LEASE'
 * ```
 */
export const serveSettings = [
  {
    flag: 'port',
    value: '<n>',
    default: '`3000`',
    help: ['TCP port (default 3000; 0 picks a free one)'],
    docs: 'TCP port; `0` picks a free one',
    section: 'options',
  },
  {
    flag: 'host',
    value: '<addr>',
    default: '`127.0.0.1`',
    help: ['interface to bind (default 127.0.0.1; 0.0.0.0 for every interface)'],
    docs: 'interface; `0.0.0.0` for every interface',
    section: 'options',
  },
  {
    flag: 'data',
    value: '<dir>',
    default: '`./.botshelf`',
    help: ['data folder (default ./.botshelf); with --database, only file content goes there'],
    docs: 'data folder (created if missing); with a database, file content only',
    section: 'options',
  },
  {
    flag: 'database',
    value: '<url>',
    variable: 'BOTSHELF_DATABASE_URL',
    default: 'none: SQLite in the data folder',
    help: [
      'PostgreSQL for metadata, rows and jobs: postgres://user:password@host:5432/db',
      '(also BOTSHELF_DATABASE_URL; default: none, SQLite in --data)',
    ],
    docs: 'PostgreSQL (`postgres://…`) for metadata, rows, jobs and tokens, shared by any number of servers ([deploy.md](deploy.md)); the flag wins over the variable',
    section: 'options',
  },
  {
    flag: 'blobs',
    value: '<url>',
    variable: 'BOTSHELF_BLOBS_URL',
    default: 'the data folder',
    help: [
      'file content in S3 (with --database): s3://bucket/optional/prefix; also',
      'BOTSHELF_BLOBS_URL, BOTSHELF_S3_ENDPOINT, BOTSHELF_S3_FORCE_PATH_STYLE, AWS_*',
      '(default: the data folder)',
    ],
    docs: 'file content in S3 (`s3://bucket/optional/prefix`), with a database only; `BOTSHELF_S3_ENDPOINT`, `BOTSHELF_S3_FORCE_PATH_STYLE` and the `AWS_*` variables complete it ([deploy.md](deploy.md))',
    section: 'options',
  },
  {
    flag: 'public-url',
    value: '<url>',
    default: "the request's origin",
    help: ["base of the absolute URLs the service returns (default: the request's origin)"],
    docs: 'base of the absolute URLs returned (`uploadUrl`, `url`), for a server behind a proxy',
    section: 'options',
  },
  {
    flag: 'cors-origin',
    value: '<o>',
    multiple: true,
    default: 'none',
    help: ['let browser pages from this origin call the service (repeatable; "*" for any)'],
    docs: 'let browser pages from this origin call the service (repeatable; `*` for any)',
    section: 'options',
  },
  {
    flag: 'shutdown-grace',
    value: '<s>',
    default: '`10`',
    help: [
      'seconds SIGINT/SIGTERM lets requests in flight (long uploads) finish before',
      'cutting their connections (default 10; 0 cuts at once; decimals allowed)',
    ],
    docs: 'how long SIGINT/SIGTERM lets requests in flight finish before cutting their connections; 0 to 86400, decimals allowed (`2.5`); anything else is a usage error (exit 2)',
    section: 'options',
  },
  {
    flag: 'job-lease',
    value: '<s>',
    variable: 'BOTSHELF_JOB_LEASE',
    default: '`30`',
    help: [
      "seconds a background job (indexing, import, export, expiry) stays a server's own",
      'between renewals (default 30; 0.5 to 3600; or BOTSHELF_JOB_LEASE): when a server',
      'dies, another takes its jobs over once the lease has run out',
    ],
    docs: "how long a background job (indexing, table import and export, the expiry sweep) stays a server's own between renewals (renewed every third of it while it runs); when a server dies, another takes its jobs over once the lease has run out. 0.5 to 3600, decimals allowed; the flag wins over the variable; anything else is a usage error (exit 2)",
    section: 'options',
  },
  {
    flag: 'expiry-sweep',
    value: '<s>',
    variable: 'BOTSHELF_EXPIRY_SWEEP',
    default: '`60`',
    help: [
      'seconds between passes that delete expired files (default 60; 1 to 86400; or',
      'BOTSHELF_EXPIRY_SWEEP); servers sharing a database run one pass per interval',
    ],
    docs: 'seconds between the passes that delete expired files (reads hide them at once); servers sharing a database run one pass per interval between them. 1 to 86400',
    section: 'options',
  },
  {
    flag: 'webhook-retries',
    value: '<delays>',
    variable: 'BOTSHELF_WEBHOOK_RETRIES',
    default: '`5s,30s,2m,10m,30m,1h,3h,6h,12h,24h`',
    help: [
      'waits before each retry of a storage event delivery, comma-separated (units ms, s, m,',
      'h, d; default 5s,30s,2m,10m,30m,1h,3h,6h,12h,24h; or BOTSHELF_WEBHOOK_RETRIES);',
      'after the last a delivery is failed and kept for replay',
    ],
    docs: 'the waits before each retry of a storage event delivery (docs/storage-events.md), comma-separated delays with a unit (`ms`, `s`, `m`, `h`, `d`); after the last one a delivery is `failed` and kept for replay; an empty value means no retry',
    section: 'options',
  },
  {
    flag: 'webhook-hosts',
    value: '<hosts>',
    variable: 'BOTSHELF_WEBHOOK_HOSTS',
    default: 'any host',
    help: [
      'hosts webhook subscriptions may call, comma-separated (a.example.com, *.example.com,',
      'IP literals; default any, loopback included; or BOTSHELF_WEBHOOK_HOSTS): set it on',
      'multi-tenant deployments (docs/security.md)',
    ],
    docs: 'the hosts storage event subscriptions may call, comma-separated: host names, `*.example.com` for sub-hosts, IP literals; default any host, loopback included. Set it on multi-tenant deployments (docs/security.md, server-side request forgery)',
    section: 'options',
  },
  {
    flag: 'rate-limit',
    value: '<spec>',
    default: '`token=off,ip=200/s,ip-burst=1000`',
    help: [
      'request rate limits: "off", or comma-separated settings:',
      '  <n>/s, <n>/m or <n>/h   sustained rate per token (default: no limit per token)',
      '  burst=<n>               requests a token may send at once (five seconds\' worth',
      '                          when only a rate is given; alone: at 100/s)',
      '  token=off               no limit per token',
      '  ip=<rate> | ip=off      rate per client IP address on the routes without',
      '                          a token: signed content URLs, /, /health (default 200/s)',
      '  ip-burst=<n>            (default 1000)',
      'e.g. --rate-limit 50/s,burst=200   --rate-limit ip=off   --rate-limit off',
      'Over the limit: 429 RateLimited with Retry-After.',
    ],
    docs: 'request rate limits, per token and per client IP address; `off` switches them off. See [Rate limiting](#rate-limiting); a spec that cannot be read is a usage error naming the setting (exit 2)',
    section: 'options',
  },
  {
    flag: 'log-level',
    value: '<l>',
    variable: 'BOTSHELF_LOG_LEVEL',
    default: '`info`',
    help: [
      'debug, info (default), warn, error or silent (or BOTSHELF_LOG_LEVEL). Requests answered',
      '5xx are logged at error, those slower than 1 s at warn, the others (4xx too) at info',
    ],
    docs: '`debug`, `info`, `warn`, `error` or `silent`: requests answered 5xx are logged at error, those slower than 1 s at warn, the others (4xx too) at info',
    section: 'options',
  },
  {
    flag: 'log-format',
    value: '<f>',
    variable: 'BOTSHELF_LOG_FORMAT',
    default: '`pretty` on a terminal, else `json`',
    help: ['pretty (default on a terminal) or json (default otherwise; or BOTSHELF_LOG_FORMAT)'],
    docs: '`pretty` lines for people or `json` lines for log tools',
    section: 'options',
  },
  {
    flag: 'metrics-port',
    value: '<n>',
    default: "the service's port",
    help: [
      "serve GET /metrics on this port (same --host) instead of the service's port",
      '(readable with a workspace administrator token: token create --workspace --role administrator)',
    ],
    docs: 'serve `GET /metrics` on this port (same `--host`), readable with a workspace administrator token',
    section: 'options',
  },
  {
    flag: 'search-min-score',
    value: '<s>',
    variable: 'BOTSHELF_SEARCH_MIN_SCORE',
    default: '`0.05`',
    help: [
      'relevance floor of file search, 0 to 1 (default 0.05; or BOTSHELF_SEARCH_MIN_SCORE):',
      'passages scoring under it are not returned; 0 returns every candidate',
    ],
    docs: 'relevance floor of `searchFiles`: passages whose score (the calibrated relevance, [docs/search.md](search.md#scores-and-the-relevance-floor)) is under it are not returned; 0 to 1, `0` returns every candidate; anything else is a usage error (exit 2)',
    section: 'options',
  },
  ...embeddingsSettings,
  ...languageModelSettings,
  {
    flag: 'quota-file-storage',
    value: '<size>',
    default: 'no limit',
    help: ['most File Storage of the workspace (content bytes of every file), e.g. 10GB;', 'an upload past it fails with 413 (default: no limit)'],
    docs: 'most File Storage of the workspace (content bytes of every file), e.g. `10GB`; an upload past it fails with 413',
    section: 'quotas',
  },
  {
    flag: 'quota-vector-storage',
    value: '<size>',
    default: 'no limit',
    help: ['most Vector DB Storage (passage text + vectors), e.g. 1GB; indexing past it', 'ends indexing_failed (default: no limit)'],
    docs: 'most Vector DB Storage (passage text + vectors), e.g. `1GB`; indexing past it ends `indexing_failed`',
    section: 'quotas',
  },
  {
    flag: 'import-max-ratio',
    value: '<n>',
    variable: 'BOTSHELF_IMPORT_MAX_RATIO',
    default: '100',
    help: ['most decompressed bytes per byte of a gzip table import past its first MiB;', 'a file that expands more fails (default: 100)'],
    docs: 'most decompressed bytes per byte of a gzip table import past its first MiB; a file that expands more (a zip bomb) fails, nothing imported',
    section: 'quotas',
  },
  {
    flag: 'import-table-rows',
    value: '<n>',
    variable: 'BOTSHELF_IMPORT_TABLE_ROWS',
    default: '1000000',
    help: ['most rows a table may hold after an import; a file that would pass it', 'fails before any row is written (default: 1000000)'],
    docs: 'most rows a table may hold after an import; a file that would pass it fails before any row is written',
    section: 'quotas',
  },
  {
    flag: 'import-bot-rows',
    value: '<n>',
    variable: 'BOTSHELF_IMPORT_BOT_ROWS',
    default: '5000000',
    help: ["most rows all of a bot's tables may hold after an import (default: 5000000)"],
    docs: "most rows all of a bot's tables may hold after an import; a file that would pass it fails before any row is written",
    section: 'quotas',
  },
  {
    flag: 'import-table-bytes',
    value: '<size>',
    variable: 'BOTSHELF_IMPORT_TABLE_BYTES',
    default: '1GB',
    help: ["most bytes a table's rows may store after an import, e.g. 256MB; a file that", 'would pass it fails before any row is written (default: 1GB)'],
    docs: "most bytes a table's rows may store after an import (the text of every value), e.g. `256MB`; a file that would pass it fails before any row is written",
    section: 'quotas',
  },
  {
    flag: 'import-bot-bytes',
    value: '<size>',
    variable: 'BOTSHELF_IMPORT_BOT_BYTES',
    default: '5GB',
    help: ["most bytes all of a bot's tables may store after an import (default: 5GB)"],
    docs: "most bytes all of a bot's tables may store after an import (the text of every value), e.g. `2GB`; a file that would pass it fails before any row is written",
    section: 'quotas',
  },
] as const satisfies readonly Setting[]
