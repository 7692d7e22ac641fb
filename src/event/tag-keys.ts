import { getTag } from './accessors.js'
import type { BotEvent, TagScope } from './event-schema.js'

/** The tag keys a bot uses, by scope. */
export type TagKeyMap = { readonly [S in TagScope]?: readonly string[] }

/** A key declared for a scope. */
type KeyOf<M extends TagKeyMap, S extends keyof M> = M[S] extends readonly (infer K)[] ? K & string : never

/** Typed reading and writing of a bot's tags: a key not declared for its scope does not compile. */
export interface TagKeys<M extends TagKeyMap> {
  /** The declared keys, by scope. */
  readonly keys: M
  /**
   * One tag value, or `undefined`.
   *
   * @example
   * ```ts
   * tags.get(event, 'conversation', 'topic')
   * ```
   */
  get<S extends keyof M & TagScope>(event: BotEvent, scope: S, key: KeyOf<M, S>): string | undefined
  /**
   * A copy of the event with one tag set (what a before-hook returns to tag an event).
   *
   * @example
   * ```ts
   * return tags.set(event, 'conversation', 'topic', 'billing')
   * ```
   */
  set<E extends BotEvent, S extends keyof M & TagScope>(event: E, scope: S, key: KeyOf<M, S>, value: string): E
}

/**
 * Declares the tag keys of a bot, by scope, and returns typed `get`/`set`. A key used at runtime that was not
 * declared throws `RangeError` (a key computed from data, typed `string`, is checked too).
 *
 * @example
 * ```ts
 * const tags = defineTagKeys({ conversation: ['topic', 'priority'], user: ['plan'] })
 * tags.get(event, 'user', 'plan')
 * tags.get(event, 'user', 'topic') // does not compile
 * ```
 */
export function defineTagKeys<const M extends TagKeyMap>(keys: M): TagKeys<M> {
  const check = (scope: string, key: string): void => {
    const declared = (keys as Record<string, readonly string[] | undefined>)[scope]
    if (!declared?.includes(key)) {
      throw new RangeError(`Tag key "${key}" is not declared for scope "${scope}"; declared: ${(declared ?? []).join(', ') || 'none'}`)
    }
  }
  return Object.freeze({
    keys,
    get(event: BotEvent, scope: TagScope, key: string) {
      check(scope, key)
      return getTag(event, scope, key)
    },
    set<E extends BotEvent>(event: E, scope: TagScope, key: string, value: string): E {
      check(scope, key)
      return { ...event, tags: { ...event.tags, [scope]: { ...event.tags?.[scope], [key]: value } } }
    },
  }) as TagKeys<M>
}
