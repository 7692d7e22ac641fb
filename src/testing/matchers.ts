import type { TagScope } from '../event/index.js'
import type { DispatchReport, StateScope } from '../runtime/index.js'

/** What vitest (or Jest) hands a matcher as `this`. */
interface MatcherContext {
  isNot: boolean
  equals(a: unknown, b: unknown): boolean
}

/** A matcher's answer. */
interface MatcherResult {
  pass: boolean
  message: () => string
}

const show = (value: unknown): string => JSON.stringify(value)

function asReport(received: unknown): DispatchReport {
  const report = received as Partial<DispatchReport>
  if (!report || !Array.isArray(report.hooks) || !Array.isArray(report.actions)) {
    throw new TypeError(`expected a DispatchReport (what dispatch or send returns), received ${show(received)}`)
  }
  return report as DispatchReport
}

/**
 * Matchers on dispatch reports, for `expect.extend(botshelfMatchers)` (vitest or Jest). Declare their types once in
 * a setup file (see `BotshelfMatchers`).
 *
 * @example
 * ```ts
 * expect.extend(botshelfMatchers)
 * const report = await chat.send('stop')
 * expect(report).toHaveStopped('opt-out')
 * expect(report).toHaveTagged('conversation', 'topic', 'billing')
 * expect(report).toHaveRunAction('saveLead', { email: 'ada@example.com' })
 * ```
 */
export const botshelfMatchers = {
  /** The event was stopped (by the named hook, when given). */
  toHaveStopped(this: MatcherContext, received: unknown, hook?: string): MatcherResult {
    const report = asReport(received)
    const pass = report.stopped && (hook === undefined || report.stoppedBy === hook)
    return {
      pass,
      message: () =>
        `expected the event ${this.isNot ? 'not ' : ''}to be stopped${hook ? ` by "${hook}"` : ''}; ` +
        (report.stopped ? `it was stopped by "${report.stoppedBy}"` : 'no hook stopped it'),
    }
  },
  /** The event (after the before-hooks) carries the tag (with that value, when given). */
  toHaveTagged(this: MatcherContext, received: unknown, scope: TagScope, key: string, value?: string): MatcherResult {
    const report = asReport(received)
    const tags = report.event.tags?.[scope] ?? {}
    const actual = Object.hasOwn(tags, key) ? tags[key] : undefined
    const pass = actual !== undefined && (value === undefined || actual === value)
    return {
      pass,
      message: () =>
        `expected the event ${this.isNot ? 'not ' : ''}to have the ${scope} tag ${key}${value !== undefined ? `=${show(value)}` : ''}; ` +
        `its ${scope} tags are ${show(tags)}`,
    }
  },
  /** A hook ran the action (with an input equal to the given one, when given), and it succeeded. */
  toHaveRunAction(this: MatcherContext, received: unknown, action: string, input?: unknown): MatcherResult {
    const report = asReport(received)
    const pass = report.actions.some((call) => call.action === action && call.status === 'ok' && (input === undefined || this.equals(call.input, input)))
    return {
      pass,
      message: () =>
        `expected hooks ${this.isNot ? 'not ' : ''}to run action "${action}"${input !== undefined ? ` with ${show(input)}` : ''}; ` +
        `actions run: ${show(report.actions.map((c) => ({ action: c.action, input: c.input, status: c.status })))}`,
    }
  },
  /** The scope's state was saved (equal to the given value, when given). */
  toHaveSavedState(this: MatcherContext, received: unknown, scope: StateScope, value?: unknown): MatcherResult {
    const report = asReport(received)
    const change = report.state.find((c) => c.scope === scope && c.saved)
    const pass = change !== undefined && (value === undefined || this.equals(change.after, value))
    return {
      pass,
      message: () =>
        `expected the ${scope} state ${this.isNot ? 'not ' : ''}to be saved${value !== undefined ? ` as ${show(value)}` : ''}; ` +
        (change ? `it was saved as ${show(change.after)}` : `state changes: ${show(report.state)}`),
    }
  },
}

/**
 * The types of `botshelfMatchers`, for your runner's assertion interface. In a vitest setup file:
 *
 * @example
 * ```ts
 * import { expect } from 'vitest'
 * import { botshelfMatchers, type BotshelfMatchers } from 'botshelf/testing'
 * expect.extend(botshelfMatchers)
 * declare module 'vitest' {
 *   interface Assertion<T = any> extends BotshelfMatchers<T> {}
 * }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export interface BotshelfMatchers<R = unknown> {
  /** The event was stopped (by the named hook, when given). */
  toHaveStopped(hook?: string): R
  /** The event carries the tag (with that value, when given). */
  toHaveTagged(scope: TagScope, key: string, value?: string): R
  /** A hook ran the action (with that input, when given) and it succeeded. */
  toHaveRunAction(action: string, input?: unknown): R
  /** The scope's state was saved (as that value, when given). */
  toHaveSavedState(scope: StateScope, value?: unknown): R
}
