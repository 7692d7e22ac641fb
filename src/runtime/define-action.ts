import type { z } from 'zod'
import type { HandlerContext } from './context.js'
import { RuntimeDefinitionError } from './errors.js'
import { checkName, checkTimeout } from './define-hook.js'

/** The context of an action handler: the validated input besides the event, client, logger and signal. */
export interface ActionContext<I> extends HandlerContext {
  /** The input, parsed by the action's input schema. */
  readonly input: I
}

/** The fields of `defineAction`. */
export interface ActionDefinition<N extends string, I extends z.ZodType, O extends z.ZodType> {
  /**
   * Unique name among the runtime's actions; what `runAction` is called with.
   * @example `name: 'saveLead'`
   */
  readonly name: N
  /**
   * Schema of the input; invalid input is refused before the handler runs.
   * @example `input: z.object({ email: z.email() })`
   */
  readonly input: I
  /**
   * Schema of the output; an invalid output is refused after the handler returns.
   * @example `output: z.object({ rowId: z.number() })`
   */
  readonly output: O
  /**
   * Deadline in milliseconds; defaults to the runtime's `defaultTimeoutMs`.
   * @example `timeoutMs: 5_000`
   */
  readonly timeoutMs?: number
  /**
   * The action's code: receives `{ input, event, client, logger, signal }`, returns the output.
   * @example `handler: async ({ input, client }) => ({ rowId: (await save(client, input)).id })`
   */
  handler(context: ActionContext<z.output<I>>): z.input<O> | Promise<z.input<O>>
}

/** A defined action (frozen). */
export interface Action<N extends string = string, I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType>
  extends ActionDefinition<N, I, O> {
  readonly kind: 'action'
}

/** Any action. */
export type AnyAction = Action<string, z.ZodType, z.ZodType>

/** What an action accepts (its input schema's input type). */
export type ActionInput<A> = A extends Action<string, infer I, z.ZodType> ? z.input<I> : never

/** What an action returns once validated (its output schema's output type). */
export type ActionOutput<A> = A extends Action<string, z.ZodType, infer O> ? z.output<O> : never

/**
 * Defines an action with zod schemas for its input and output; their types flow into the handler and into
 * `runtime.runAction`. Throws `RuntimeDefinitionError` for an empty name, missing schemas or a bad timeout.
 *
 * @example
 * ```ts
 * const add = defineAction({
 *   name: 'add',
 *   input: z.object({ a: z.number(), b: z.number() }),
 *   output: z.object({ sum: z.number() }),
 *   handler: ({ input }) => ({ sum: input.a + input.b }),
 * })
 * ```
 */
export function defineAction<const N extends string, I extends z.ZodType, O extends z.ZodType>(
  definition: ActionDefinition<N, I, O>,
): Action<N, I, O> {
  const { name, input, output, timeoutMs, handler } = definition
  checkName('action', name)
  for (const [field, schema] of [
    ['input', input],
    ['output', output],
  ] as const) {
    if (schema === null || typeof schema !== 'object' || typeof (schema as { safeParseAsync?: unknown }).safeParseAsync !== 'function') {
      throw new RuntimeDefinitionError('INVALID_ACTION', `Action "${name}": ${field} must be a zod schema`)
    }
  }
  checkTimeout(`Action "${name}"`, timeoutMs)
  if (typeof handler !== 'function') {
    throw new RuntimeDefinitionError('INVALID_ACTION', `Action "${name}": handler must be a function`)
  }
  return Object.freeze({ kind: 'action' as const, name, input, output, ...(timeoutMs !== undefined ? { timeoutMs } : {}), handler })
}
