import { Hono, type MiddlewareHandler } from 'hono'
import type { z } from 'zod'
import { toReadableIssues } from 'botshelf/api'
import type { MemberRole } from 'botshelf/api'
import type { AuthPort, BotRecord, TokenRecord } from '../store/index.js'
import type { AppEnv } from '../http/env.js'
import { FILES_JSON_LIMIT, readJsonBody } from '../http/body.js'
import { jsonAnswer } from '../http/json-answer.js'
import { invalidFromIssues, ServiceError } from '../http/service-error.js'
import { requireWorkspaceAdministrator, tokenAuth } from './admin-auth.js'
import type { AdminEnv } from './admin-env.js'
import { CreateBotBodySchema, CreateTokenBodySchema, ListTokensQuerySchema, SignInBodySchema } from './admin-schemas.js'
import type { SignInCodes } from './sign-in-codes.js'
import { describeRawRoute } from '../http/openapi/raw-route.js'
import { adminRouteDocs } from './admin-route-docs.js'

/** What the routes without a bot need from the app. */
export interface AdminRoutesOptions {
  /**
   * The auth port (bots and tokens).
   *
   * @example
   * ```ts
   * { auth: backend.auth }
   * ```
   */
  readonly auth: AuthPort
  /**
   * The console's one-time sign-in codes (`app.admin.issueSignInCode()` makes them).
   *
   * @example
   * ```ts
   * { signInCodes: new SignInCodes(() => new Date()) }
   * ```
   */
  readonly signInCodes: SignInCodes
  /**
   * The per-token rate limit, run once the token is known (the one every `/v1` route counts against).
   *
   * @example
   * ```ts
   * { byToken: limiter.byToken }
   * ```
   */
  readonly byToken?: MiddlewareHandler<AppEnv>
  /**
   * The per-address rate limit of the one route without a token (`POST /v1/console/sign-in`).
   *
   * @example
   * ```ts
   * { byAddress: limiter.byAddress(() => true) }
   * ```
   */
  readonly byAddress?: MiddlewareHandler<AppEnv>
}

function parseWith<T extends z.ZodType>(schema: T, value: unknown, lead: string): z.output<T> {
  const result = schema.safeParse(value)
  if (!result.success) throw invalidFromIssues(lead, toReadableIssues(result.error.issues, value))
  return result.data
}

const botView = (bot: BotRecord) => ({ id: bot.id, name: bot.name, createdAt: bot.createdAt })
const passThrough: MiddlewareHandler<AppEnv> = async (_c, next) => {
  await next()
}

/**
 * The routes that name no bot (docs/server.md, "Administration"): `GET /v1/whoami` for any token, the workspace
 * administrator's `/v1/admin/bots` and `/v1/admin/tokens`, and the console's `POST /v1/console/sign-in`. Mount them
 * before the `/v1/*` auth middleware: they authenticate the token themselves, without `x-bot-id`.
 *
 * @example
 * ```ts
 * hono.route('/', adminRoutes({ auth: backend.auth, signInCodes }))
 * hono.use('/v1/*', authMiddleware(backend.auth))
 * ```
 */
export function adminRoutes(options: AdminRoutesOptions): Hono<AdminEnv> {
  const { auth, signInCodes } = options
  const byToken = (options.byToken ?? passThrough) as unknown as MiddlewareHandler<AdminEnv>
  const byAddress = (options.byAddress ?? passThrough) as unknown as MiddlewareHandler<AdminEnv>
  const router = new Hono<AdminEnv>()
  for (const route of adminRouteDocs) describeRawRoute(router as unknown as Hono<AppEnv>, route)

  router.post('/v1/console/sign-in', byAddress, async (c) => {
    const body = parseWith(SignInBodySchema, await readJsonBody(c.req.raw, FILES_JSON_LIMIT), 'Invalid request body')
    if (!signInCodes.redeem(body.code)) {
      throw new ServiceError('Unauthorized', 'This sign-in link was already used, has expired, or belongs to an earlier start of the server: sign in with a token')
    }
    const created = await auth.createToken({ workspace: true, role: 'administrator', label: 'console sign-in link' })
    const bots = await auth.listBots()
    return jsonAnswer(c, { token: created.token, tokenId: created.id, bots: bots.map(botView) })
  })

  router.get('/v1/whoami', tokenAuth(auth), byToken, (c) => {
    const { principal, scope, bots } = c.get('tokenIdentity')
    return jsonAnswer(c, {
      tokenId: principal.tokenId,
      scope,
      kind: principal.kind,
      role: principal.kind === 'member' ? principal.role : principal.kind,
      integrationName: principal.kind === 'integration' ? principal.integrationName : null,
      bots: bots.map(botView),
      canAdminister: scope === 'workspace' && principal.kind === 'member' && principal.role === 'administrator',
    })
  })

  router.use('/v1/admin/*', tokenAuth(auth, requireWorkspaceAdministrator), byToken)

  router.get('/v1/admin/bots', async (c) => jsonAnswer(c, { bots: (await auth.listBots()).map(botView) }))

  router.post('/v1/admin/bots', async (c) => {
    const body = parseWith(CreateBotBodySchema, (await readJsonBody(c.req.raw, FILES_JSON_LIMIT)) ?? {}, 'Invalid request body')
    const bot = await auth.createBot(body.name !== undefined ? { name: body.name } : {})
    return jsonAnswer(c, { bot: botView(bot) })
  })

  router.get('/v1/admin/tokens', async (c) => {
    const query = parseWith(ListTokensQuerySchema, c.req.query(), 'Invalid query')
    const tokens: TokenRecord[] = await auth.listTokens({
      ...(query.botId !== undefined ? { botId: query.botId } : {}),
      activeOnly: query.all !== 'true',
    })
    return jsonAnswer(c, { tokens })
  })

  router.post('/v1/admin/tokens', async (c) => {
    const body = parseWith(CreateTokenBodySchema, await readJsonBody(c.req.raw, FILES_JSON_LIMIT), 'Invalid request body')
    const label = body.label !== undefined ? { label: body.label } : {}
    const created =
      body.workspace === true
        ? await auth.createToken({ workspace: true, role: body.role as MemberRole, ...label })
        : await auth.createToken({
            botId: body.botId!,
            role: body.role,
            ...(body.integrationName !== undefined ? { integrationName: body.integrationName } : {}),
            ...label,
          })
    return jsonAnswer(c, { token: created })
  })

  router.delete('/v1/admin/tokens/:id', async (c) => {
    const id = c.req.param('id')
    const known = (await auth.listTokens()).find((t) => t.id === id)
    if (!known) throw new ServiceError('ResourceNotFound', `No token with id "${id}"`)
    if (known.revokedAt !== null) return jsonAnswer(c, { token: known })
    return jsonAnswer(c, { token: await auth.revokeToken(id) })
  })

  return router
}
