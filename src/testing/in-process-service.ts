import type { Clock } from '../clock/index.js'

// The storage service lives in its own package (botshelf-server) so that `botshelf` stays light: it is loaded here
// only when a test asks for it, by a specifier TypeScript does not follow, so no declaration of botshelf reaches
// the service's types (or better-sqlite3's).

/** The part of the in-process storage service that `createTestBot` and bot tests use. */
export interface InProcessService {
  /**
   * The service's fetch handler: `Request` in, `Response` out, no socket.
   * @example `const res = await bot.app.fetch(new Request('http://botshelf.test/v1/files'))`
   */
  fetch(request: Request): Promise<Response>
  /** Bots and tokens of the in-process service (what `createTestBot` uses to make a bot's token). */
  readonly admin: {
    listBots(): Promise<Array<{ id: string }>>
    createBot(input: { id: string; name: string }): Promise<unknown>
    createToken(input: { botId: string; role: 'bot'; label: string }): Promise<{ token: string }>
  }
  /** Stops the service and removes its temporary store. */
  close(): Promise<void>
}

/** What `createTestBot` needs of the `botshelf-server` module. */
export interface InProcessServiceModule {
  createApp(options: {
    memory: true
    publicUrl: string
    logger: unknown
    rateLimit: false
    now?: Clock
    webhooks?: { fetch: (url: string, init: { body: string }) => Promise<unknown>; pollMs?: number }
  }): Promise<InProcessService>
  silentLogger: unknown
}

/** The package that holds the storage service, named in the error a bot test gets when it is not installed. */
export const SERVICE_PACKAGE = 'botshelf-server'

/**
 * Loads the storage service package, or fails at once with an error that says which package to add.
 *
 * @example
 * ```ts
 * const service = await loadInProcessService()
 * const app = await service.createApp({ memory: true, publicUrl: 'http://botshelf.test', logger: service.silentLogger, rateLimit: false })
 * ```
 */
export async function loadInProcessService(specifier: string = SERVICE_PACKAGE): Promise<InProcessServiceModule> {
  try {
    return (await import(specifier)) as InProcessServiceModule
  } catch (error) {
    if (isMissingPackage(error, specifier)) {
      throw new Error(
        `createTestBot runs the real storage service in process, and its package "${specifier}" is not installed: ` +
          `add it as a dev dependency (npm install --save-dev ${specifier}). ` +
          'The fakes, signed requests, fake clock and memory logger of botshelf/testing need only botshelf.',
        { cause: error },
      )
    }
    throw error
  }
}

function isMissingPackage(error: unknown, specifier: string): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  const notFound = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || (typeof message === 'string' && /Cannot find (package|module)/.test(message))
  return notFound && typeof message === 'string' && message.includes(specifier)
}
