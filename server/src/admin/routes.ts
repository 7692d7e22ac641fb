import { Hono, type MiddlewareHandler } from 'hono'
import { z } from 'zod'
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
import type { RawRouteResponse } from '../http/openapi/raw-route.js'
import { registerRoute } from '../http/register-route.js'
import { notFoundHandler } from '../http/not-found.js'

// The OpenAPI descriptions of these routes are declared with them (`registerRoute`); these are their shared parts.
const jsonSchema = (schema: z.ZodType): Record<string, unknown> => {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
  delete json['$schema']
  return json
}

const botSchema = {
  type: 'object',
  properties: { id: { type: 'string' }, name: { type: 'string' }, createdAt: { type: 'string', format: 'date-time' } },
  required: ['id', 'name', 'createdAt'],
}
const nullableString = { type: ['string', 'null'] }
const tokenSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    scope: { enum: ['bot', 'workspace'] },
    botId: nullableString,
    workspaceId: nullableString,
    role: { type: 'string' },
    integrationName: nullableString,
    userId: nullableString,
    label: nullableString,
    createdAt: { type: 'string' },
    revokedAt: nullableString,
  },
  required: ['id', 'scope', 'botId', 'workspaceId', 'role', 'integrationName', 'userId', 'label', 'createdAt', 'revokedAt'],
}

// Every list answers `meta` (docs/wire-format.md §4): the official clients and the bp CLI read `meta.nextToken`
// without a guard. The admin lists are one page (a workspace has few bots and tokens), so `meta` is empty.
const listMeta = { type: 'object', properties: { nextToken: { type: 'string' } } }

const unauthorized: RawRouteResponse = { description: '`Unauthorized`: no bearer token, or an unknown or revoked one.', body: 'error' }
const forbidden: RawRouteResponse = { description: '`Forbidden`: the token is not a workspace administrator token.', body: 'error' }
const invalid: RawRouteResponse = { description: '`InvalidPayload`: the body or query does not fit; the message names the field.', body: 'error' }
const adminDescription = 'A workspace member token with the administrator role; no x-bot-id (decision 1103).'

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

  registerRoute(router, {
    docs: {
      methods: ['POST'],
      path: '/v1/console/sign-in',
      operationId: 'redeemConsoleSignInCode',
      summary: 'Exchange the one-time code of a console sign-in link for a workspace administrator token',
      description: 'No token needed. A code works once, for 24 hours, while the server process that printed it runs (decision 1102).',
      parameters: [],
      requestBody: { description: 'The code from the link fragment.', schema: jsonSchema(SignInBodySchema) },
      responses: {
        200: {
          description: 'A new workspace administrator token (shown once) and the bots of the workspace.',
          body: 'json',
          schema: { type: 'object', properties: { token: { type: 'string' }, tokenId: { type: 'string' }, bots: { type: 'array', items: botSchema } }, required: ['token', 'tokenId', 'bots'] },
        },
        400: invalid,
        401: { description: '`Unauthorized`: the code is unknown, used or expired.', body: 'error' },
      },
    },
    guards: [byAddress],
    handle: async (c) => {
      const body = parseWith(SignInBodySchema, await readJsonBody(c.req.raw, FILES_JSON_LIMIT), 'Invalid request body')
      if (!signInCodes.redeem(body.code)) {
        throw new ServiceError('Unauthorized', 'This sign-in link was already used, has expired, or belongs to an earlier start of the server: sign in with a token')
      }
      const created = await auth.createToken({ workspace: true, role: 'administrator', label: 'console sign-in link' })
      const bots = await auth.listBots()
      return jsonAnswer(c, { token: created.token, tokenId: created.id, bots: bots.map(botView) })
    },
  })

  registerRoute(router, {
    docs: {
      methods: ['GET'],
      path: '/v1/whoami',
      operationId: 'whoami',
      summary: 'Who the bearer token is: its kind, role, scope, and the bots it reaches',
      description: 'Any valid token; no x-bot-id.',
      security: 'bearer',
      parameters: [],
      responses: {
        200: {
          description: 'The token.',
          body: 'json',
          schema: {
            type: 'object',
            properties: {
              tokenId: { type: 'string' },
              scope: { enum: ['bot', 'workspace'] },
              kind: { enum: ['bot', 'integration', 'member'] },
              role: { type: 'string' },
              integrationName: nullableString,
              bots: { type: 'array', items: botSchema },
              canAdminister: { type: 'boolean' },
            },
            required: ['tokenId', 'scope', 'kind', 'role', 'integrationName', 'bots', 'canAdminister'],
          },
        },
        401: unauthorized,
      },
    },
    guards: [tokenAuth(auth), byToken],
    handle: (c) => {
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
    },
  })

  router.use('/v1/admin/*', tokenAuth(auth, requireWorkspaceAdministrator), byToken)

  registerRoute(router, {
    docs: {
      methods: ['GET'],
      path: '/v1/admin/bots',
      operationId: 'adminListBots',
      summary: 'Every bot of the workspace, oldest first',
      description: adminDescription,
      security: 'bearer',
      parameters: [{ name: 'nextToken', in: 'query', required: false, description: 'Accepted for the official clients; the list is one page.' }],
      responses: {
        200: { description: 'The bots, in one page (`meta` has no `nextToken`).', body: 'json', schema: { type: 'object', properties: { bots: { type: 'array', items: botSchema }, meta: listMeta }, required: ['bots', 'meta'] } },
        401: unauthorized,
        403: forbidden,
      },
    },
    handle: async (c) => jsonAnswer(c, { bots: (await auth.listBots()).map(botView), meta: {} }),
  })

  registerRoute(router, {
    docs: {
      methods: ['GET'],
      path: '/v1/admin/bots/{id}',
      operationId: 'adminGetBot',
      summary: 'One bot of the workspace',
      description: adminDescription,
      security: 'bearer',
      parameters: [{ name: 'id', in: 'path', required: true, description: 'The bot id.' }],
      responses: {
        200: { description: 'The bot.', body: 'json', schema: { type: 'object', properties: { bot: botSchema }, required: ['bot'] } },
        401: unauthorized,
        403: forbidden,
        404: { description: '`ResourceNotFound`: no bot with that id.', body: 'error' },
      },
    },
    handle: async (c) => {
      const id = c.req.param('id') ?? ''
      const bot = await auth.getBot(id)
      if (!bot) throw new ServiceError('ResourceNotFound', `No bot with id "${id}"`)
      return jsonAnswer(c, { bot: botView(bot) })
    },
  })

  registerRoute(router, {
    docs: {
      methods: ['POST'],
      path: '/v1/admin/bots',
      operationId: 'adminCreateBot',
      summary: 'Create a bot',
      description: adminDescription,
      security: 'bearer',
      parameters: [],
      requestBody: { description: 'An optional name.', schema: jsonSchema(CreateBotBodySchema) },
      responses: { 200: { description: 'The bot.', body: 'json', schema: { type: 'object', properties: { bot: botSchema }, required: ['bot'] } }, 400: invalid, 401: unauthorized, 403: forbidden },
    },
    handle: async (c) => {
      const body = parseWith(CreateBotBodySchema, (await readJsonBody(c.req.raw, FILES_JSON_LIMIT)) ?? {}, 'Invalid request body')
      const bot = await auth.createBot(body.name !== undefined ? { name: body.name } : {})
      return jsonAnswer(c, { bot: botView(bot) })
    },
  })

  registerRoute(router, {
    docs: {
      methods: ['GET'],
      path: '/v1/admin/tokens',
      operationId: 'adminListTokens',
      summary: 'Tokens without their secrets (active ones unless all=true)',
      description: adminDescription,
      security: 'bearer',
      parameters: [
        { name: 'botId', in: 'query', required: false, description: 'Keep the tokens that reach this bot (bound to it, or workspace-wide).' },
        { name: 'all', in: 'query', required: false, description: '`true` lists revoked tokens too.', schema: { enum: ['true', 'false'] } },
      ],
      responses: {
        200: { description: 'The tokens, in one page (`meta` has no `nextToken`).', body: 'json', schema: { type: 'object', properties: { tokens: { type: 'array', items: tokenSchema }, meta: listMeta }, required: ['tokens', 'meta'] } },
        400: invalid,
        401: unauthorized,
        403: forbidden,
      },
    },
    handle: async (c) => {
      const query = parseWith(ListTokensQuerySchema, c.req.query(), 'Invalid query')
      const tokens: TokenRecord[] = await auth.listTokens({
        ...(query.botId !== undefined ? { botId: query.botId } : {}),
        activeOnly: query.all !== 'true',
      })
      return jsonAnswer(c, { tokens, meta: {} })
    },
  })

  registerRoute(router, {
    docs: {
      methods: ['POST'],
      path: '/v1/admin/tokens',
      operationId: 'adminCreateToken',
      summary: 'Create a token bound to one bot, or a workspace member token; the secret is in this answer only',
      description: adminDescription,
      security: 'bearer',
      parameters: [],
      requestBody: { description: 'botId and role, or workspace: true and a member role; integrationName with role integration; an optional label.', schema: jsonSchema(CreateTokenBodySchema) },
      responses: {
        200: { description: 'The token with its secret (`token`).', body: 'json', schema: { type: 'object', properties: { token: { ...tokenSchema, properties: { ...tokenSchema.properties, token: { type: 'string' } } } }, required: ['token'] } },
        400: invalid,
        401: unauthorized,
        403: forbidden,
        404: { description: '`ResourceNotFound`: no bot with that id (`metadata.code` `UNKNOWN_BOT`).', body: 'error' },
      },
    },
    handle: async (c) => {
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
    },
  })

  registerRoute(router, {
    docs: {
      methods: ['DELETE'],
      path: '/v1/admin/tokens/{id}',
      operationId: 'adminRevokeToken',
      summary: 'Revoke a token: it stops working at once (revoking a revoked token answers it as is)',
      description: adminDescription,
      security: 'bearer',
      parameters: [{ name: 'id', in: 'path', required: true, description: 'The token id (`tok_...`).' }],
      responses: {
        200: { description: 'The revoked token.', body: 'json', schema: { type: 'object', properties: { token: tokenSchema }, required: ['token'] } },
        401: unauthorized,
        403: forbidden,
        404: { description: '`ResourceNotFound`: no token with that id.', body: 'error' },
      },
    },
    handle: async (c) => {
      const id = c.req.param('id') ?? ''
      const known = (await auth.listTokens()).find((t) => t.id === id)
      if (!known) throw new ServiceError('ResourceNotFound', `No token with id "${id}"`)
      if (known.revokedAt !== null) return jsonAnswer(c, { token: known })
      return jsonAnswer(c, { token: await auth.revokeToken(id) })
    },
  })

  // Past every admin route: an administration path botshelf does not have (bp's integrations, a bot's logs, ...)
  // is answered 404/405 like any unknown route, not sent on to the bot routes, which would ask for x-bot-id.
  const unrouted = notFoundHandler(router as unknown as Parameters<typeof notFoundHandler>[0])
  router.use('/v1/admin/*', async (c) => unrouted(c as unknown as Parameters<typeof unrouted>[0]))

  return router
}
