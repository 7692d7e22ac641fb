import { BotshelfError } from 'botshelf/api'
/**
 * Thrown by a job handler when another attempt cannot help (the input is bad, the target is gone): the runner fails
 * the job with `retry: false`, so it goes `dead` at once instead of being retried with backoff. Any other error is
 * retried.
 *
 * @example
 * ```ts
 * if (!file) throw new PermanentJobError(`file ${payload.fileId} no longer exists`)
 * ```
 */
export class PermanentJobError extends BotshelfError {
  override readonly name: string = 'PermanentJobError'
  constructor(message: string) {
    // Never answered on the wire: the job's record keeps the message.
    super('Internal', 'JOB_FAILED_PERMANENTLY', message)
  }
}
