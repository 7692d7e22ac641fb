import { z } from 'zod'
import type { RawRoute, RawRouteResponse } from '../http/openapi/raw-route.js'
import { CreateBotBodySchema, CreateTokenBodySchema, SignInBodySchema } from './admin-schemas.js'

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

const unauthorized: RawRouteResponse = { description: '`Unauthorized`: no bearer token, or an unknown or revoked one.', body: 'error' }
const forbidden: RawRouteResponse = { description: '`Forbidden`: the token is not a workspace administrator token.', body: 'error' }
const invalid: RawRouteResponse = { description: '`InvalidPayload`: the body or query does not fit; the message names the field.', body: 'error' }
const adminDescription = 'A workspace member token with the administrator role; no x-bot-id (decision 1103).'

/**
 * The OpenAPI descriptions of the routes that name no bot (`adminRoutes`).
 *
 * @example
 * ```ts
 * for (const route of adminRouteDocs) describeRawRoute(router, route)
 * ```
 */
export const adminRouteDocs: ReadonlyArray<RawRoute> = [
  {
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
  {
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
  {
    methods: ['GET'],
    path: '/v1/admin/bots',
    operationId: 'adminListBots',
    summary: 'Every bot of the workspace, oldest first',
    description: adminDescription,
    security: 'bearer',
    parameters: [],
    responses: { 200: { description: 'The bots.', body: 'json', schema: { type: 'object', properties: { bots: { type: 'array', items: botSchema } }, required: ['bots'] } }, 401: unauthorized, 403: forbidden },
  },
  {
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
  {
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
    responses: { 200: { description: 'The tokens.', body: 'json', schema: { type: 'object', properties: { tokens: { type: 'array', items: tokenSchema } }, required: ['tokens'] } }, 400: invalid, 401: unauthorized, 403: forbidden },
  },
  {
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
      404: { description: '`ResourceNotFound`: no bot with that id (`metadata.code` `unknown_bot`).', body: 'error' },
    },
  },
  {
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
]
