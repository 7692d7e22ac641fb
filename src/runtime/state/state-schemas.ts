import type { z } from 'zod'
import type { BotEvent } from '../../event/index.js'
import { RuntimeDefinitionError } from '../errors.js'

/** The scopes state is kept for: one conversation, one user, the whole bot. */
export const stateScopes = ['conversation', 'user', 'bot'] as const

/** One of `stateScopes`. */
export type StateScope = (typeof stateScopes)[number]

/** A zod schema per scope; each must accept `{}` (give its fields defaults), the value of a new conversation or user. */
export type StateSchemas = { readonly [S in StateScope]?: z.ZodType<object> }

/** The values hooks see as `ctx.state`: one per declared scope, typed by its schema. */
export type StateValues<S extends StateSchemas> = { -readonly [K in keyof S & StateScope]: z.output<NonNullable<S[K]>> }

/** How long each scope's value lives after its last write, in milliseconds. No expiry when not given. */
export type StateExpiry = { readonly [S in StateScope]?: number }

/**
 * The storage key of a scope's state for an event (`conversation:<botId>:<conversationId>`, `user:<botId>:<userId>`,
 * `bot:<botId>`), or `undefined` when the event has no conversation or user.
 *
 * @example
 * ```ts
 * stateKey('conversation', event) // 'conversation:bot_1:conv_1'
 * ```
 */
export function stateKey(scope: StateScope, event: BotEvent): string | undefined {
  if (scope === 'bot') return `bot:${event.botId}`
  const id = scope === 'conversation' ? event.conversationId : event.userId
  return id === undefined ? undefined : `${scope}:${event.botId}:${id}`
}

/** Throws `RuntimeDefinitionError` unless every schema is a zod schema that accepts `{}`, on a known scope. */
export function checkStateSchemas(schemas: StateSchemas | undefined): void {
  for (const [scope, schema] of Object.entries(schemas ?? {})) {
    if (!(stateScopes as readonly string[]).includes(scope)) {
      throw new RuntimeDefinitionError('INVALID_STATE', `state: scope must be ${stateScopes.map((s) => `"${s}"`).join(' | ')}, received "${scope}"`)
    }
    if (schema === null || typeof schema !== 'object' || typeof (schema as z.ZodType).safeParse !== 'function') {
      throw new RuntimeDefinitionError('INVALID_STATE', `state.${scope}: expected a zod schema`)
    }
    const empty = (schema as z.ZodType).safeParse({})
    if (!empty.success) {
      throw new RuntimeDefinitionError(
        'INVALID_STATE',
        `state.${scope}: the schema must accept {} (the state of a new ${scope}); give its fields defaults: ${empty.error.issues[0]?.message ?? ''}`,
      )
    }
  }
}
