import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Clock } from 'botshelf/api'

/** How long a sign-in code printed by `botshelf serve` stays valid: long enough to open the link after a start. */
export const SIGN_IN_CODE_LIFETIME_MS = 24 * 60 * 60 * 1000

/** A sign-in code just issued: the secret (shown once) and when it stops working. */
export interface IssuedSignInCode {
  /** 32 random bytes, base64url: what goes into the link's fragment. */
  readonly code: string
  readonly expiresAt: Date
}

function digest(code: string): Buffer {
  return createHash('sha256').update(code, 'utf8').digest()
}

/**
 * One-time sign-in codes of the console (decision 1102). Kept in this process's memory as SHA-256 hashes: a code
 * works once, until its expiry, and not after a restart. Redeeming one is what turns the printed link into a
 * session token.
 *
 * @example
 * ```ts
 * const codes = new SignInCodes(() => new Date())
 * const { code } = codes.issue()
 * codes.redeem(code) // true
 * codes.redeem(code) // false: used
 * ```
 */
export class SignInCodes {
  readonly #pending = new Map<string, number>()

  /**
   * @param now the app's clock.
   * @param lifetimeMs how long a code stays valid.
   */
  constructor(
    private readonly now: Clock,
    private readonly lifetimeMs: number = SIGN_IN_CODE_LIFETIME_MS,
  ) {}

  /**
   * Makes a new code.
   *
   * @example
   * ```ts
   * const { code, expiresAt } = codes.issue()
   * ```
   */
  issue(): IssuedSignInCode {
    const code = randomBytes(32).toString('base64url')
    const expiresAt = new Date(this.now().getTime() + this.lifetimeMs)
    this.#pending.set(digest(code).toString('hex'), expiresAt.getTime())
    return { code, expiresAt }
  }

  /**
   * Uses a code: true once for a pending, unexpired code; false for anything else (unknown, used, expired).
   *
   * @example
   * ```ts
   * if (!codes.redeem(body.code)) throw new ServiceError('Unauthorized', 'Unknown, used or expired sign-in code')
   * ```
   */
  redeem(code: string): boolean {
    const key = digest(code)
    const at = this.now().getTime()
    for (const [hash, expiresAt] of this.#pending) {
      if (expiresAt <= at) {
        this.#pending.delete(hash)
        continue
      }
      if (timingSafeEqual(Buffer.from(hash, 'hex'), key)) {
        this.#pending.delete(hash)
        return true
      }
    }
    return false
  }
}
