import type { Operation } from '../api/operation.js'
import type { CallOptions } from './http/call-options.js'
import { planRequest } from './http/request-plan.js'
import { Transport } from './http/transport.js'
import { resolveClientConfig, type ClientOptions, type ResolvedClientConfig } from './options.js'

/**
 * The part of the client every operation group builds on: resolved options, the transport, and
 * `call`, which sends one operation.
 */
export abstract class BaseClient {
  /** The options in effect after environment fallbacks and defaults, with the headers sent on every call. */
  public readonly config: ResolvedClientConfig
  /** Sends requests with the client's time limit, abort and retry rules. */
  protected readonly transport: Transport

  protected constructor(options: ClientOptions = {}) {
    this.config = resolveClientConfig(options)
    this.transport = new Transport(this.config)
  }

  /** Sends one operation: splits the input into path, query, headers and body, and returns the JSON answer. */
  protected async call<TOutput>(operation: Operation, input: object | undefined, options?: CallOptions): Promise<TOutput> {
    return (await this.transport.requestJson(planRequest(operation, input), options)) as TOutput
  }
}
