import type { BotEvent } from './event-schema.js'

/** An event as plain JSON: like `BotEvent` with `createdOn` as an ISO 8601 string. */
export type SerializedEvent = Omit<BotEvent, 'createdOn'> & { createdOn: string }

/**
 * Turns an event back into plain JSON data: `createdOn` becomes an ISO 8601 string in UTC with milliseconds
 * (`2024-05-01T10:20:30.000Z`); every other field, extra top-level properties included, is kept.
 * `parseEvent(serializeEvent(event))` gives an equal event.
 *
 * @example
 * ```ts
 * const body = JSON.stringify(serializeEvent(event))
 * ```
 */
export function serializeEvent(event: BotEvent): SerializedEvent {
  // UTC `toISOString` rather than date-fns `formatISO`: the latter writes the machine's local offset and drops
  // milliseconds, so the same event would serialize differently on two machines.
  return { ...event, createdOn: event.createdOn.toISOString() }
}
