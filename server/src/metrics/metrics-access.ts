import type { AuthPort } from '../store/index.js'
import { bearerToken } from '../http/auth/bearer.js'
import { ServiceError } from '../http/service-error.js'

/**
 * Checks that a request may read the metrics: a workspace token of an administrator
 * (`botshelf token create --workspace --role administrator`). No token or an unknown one is 401
 * `Unauthorized`; any other token (a bot token, another member role) is 403 `Forbidden`. The metrics describe the
 * whole service, every bot at once, hence a workspace-wide role.
 *
 * @example
 * ```ts
 * await checkMetricsAccess(backend.auth, request.headers.get('authorization'))
 * ```
 */
export async function checkMetricsAccess(auth: AuthPort, authorization: string | null | undefined): Promise<void> {
  const token = bearerToken(authorization)
  if (!token) throw new ServiceError('Unauthorized', 'Missing bearer token: /metrics needs a workspace administrator token (botshelf token create --workspace --role administrator)')
  // A workspace token reaches every bot: authenticating it against any bot of the workspace says who it is.
  const bots = await auth.listBots()
  const check = bots.length > 0 ? await auth.authenticate(token, bots[0]!.id) : ({ ok: false, reason: 'unknown_token' } as const)
  if (!check.ok && check.reason === 'unknown_token') throw new ServiceError('Unauthorized', 'Unknown or revoked token')
  const allowed = check.ok && check.scope === 'workspace' && check.principal.kind === 'member' && check.principal.role === 'administrator'
  if (!allowed) {
    throw new ServiceError('Forbidden', '/metrics is readable with a workspace administrator token only (botshelf token create --workspace --role administrator)')
  }
}
