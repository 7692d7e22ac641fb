/**
 * One failed attempt at a remote service that may succeed later (a 429, a 5xx, a timeout, a refused connection),
 * and how long the service asked us to wait (`undefined`: it did not say; the caller backs off on its own).
 *
 * @example
 * ```ts
 * return new TransientFailure('http://127.0.0.1:11434/v1/chat/completions answered 503', 2_000)
 * ```
 */
export class TransientFailure {
  constructor(
    /** Why the attempt failed, in a few words for an error message. */
    readonly reason: string,
    /** The wait the service asked for (its `Retry-After`), in milliseconds. */
    readonly retryAfterMs: number | undefined,
  ) {}
}
