import { resolveClientConfig, type ClientOptions, type ResolvedClientConfig } from './options.js'

/**
 * The botshelf storage client: the Files and Tables operations of the wire format, with the method
 * names and shapes of `@botpress/client`.
 *
 * @example
 * ```ts
 * import { Client } from 'botshelf/client'
 * const client = new Client({ token: 'bp_pat_abc', botId: 'my-bot' })
 * ```
 */
export class Client {
  /** The options in effect after environment fallbacks and defaults. */
  public readonly config: ResolvedClientConfig

  /**
   * @example
   * ```ts
   * const client = new Client({ token: process.env.BP_TOKEN, botId: 'my-bot', apiUrl: 'http://127.0.0.1:3000' })
   * ```
   */
  public constructor(options: ClientOptions = {}) {
    this.config = resolveClientConfig(options)
  }
}
