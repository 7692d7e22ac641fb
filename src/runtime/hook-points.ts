import type { EventDirection } from '../event/index.js'

/**
 * Where a hook runs. Incoming events go through `beforeIncoming`, `afterIncoming`, then `afterTurn`;
 * outgoing events through `beforeOutgoing`, then `afterOutgoing`.
 */
export const hookPoints = ['beforeIncoming', 'afterIncoming', 'beforeOutgoing', 'afterOutgoing', 'afterTurn'] as const

/** One of `hookPoints`. */
export type HookPoint = (typeof hookPoints)[number]

/** Points whose hooks may change the event or stop processing. */
export type BeforePoint = 'beforeIncoming' | 'beforeOutgoing'

/** The direction of the events a point sees: `afterTurn` closes the turn an incoming event opened. */
export type DirectionOfPoint<P extends HookPoint> = P extends 'beforeOutgoing' | 'afterOutgoing' ? 'outgoing' : 'incoming'

const pointsByDirection: Readonly<Record<EventDirection, readonly HookPoint[]>> = {
  incoming: ['beforeIncoming', 'afterIncoming', 'afterTurn'],
  outgoing: ['beforeOutgoing', 'afterOutgoing'],
}

/**
 * The points an event of this direction goes through, in order.
 *
 * @example
 * ```ts
 * pointsFor('outgoing') // ['beforeOutgoing', 'afterOutgoing']
 * ```
 */
export function pointsFor(direction: EventDirection): readonly HookPoint[] {
  return pointsByDirection[direction]
}

/**
 * True for a known hook point.
 *
 * @example
 * ```ts
 * isHookPoint('afterTurn') // true
 * ```
 */
export function isHookPoint(value: unknown): value is HookPoint {
  return typeof value === 'string' && (hookPoints as readonly string[]).includes(value)
}

/** True for the points whose hooks may return a changed event or `{ stop: true }`. */
export function isBeforePoint(point: HookPoint): point is BeforePoint {
  return point === 'beforeIncoming' || point === 'beforeOutgoing'
}
