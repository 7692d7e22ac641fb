import type { MiddlewareHandler } from 'hono'
import type { AuthPort } from '../../store/index.js'
import type { AppEnv } from '../env.js'
import { authenticateCaller } from '../pipeline/authenticate.js'

export { forbiddenMessage } from '../pipeline/authenticate.js'

/**
 * The pipeline's authentication step (`authenticateCaller`) as a Hono middleware: puts the caller's `Principal` on
 * the context, or throws the step's 401/400/403.
 *
 * @example
 * ```ts
 * app.use('/v1/*', authMiddleware(backend.auth))
 * ```
 */
export function authMiddleware(auth: AuthPort): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('principal', await authenticateCaller(auth, c.req.header('authorization'), c.req.header('x-bot-id')))
    await next()
  }
}
