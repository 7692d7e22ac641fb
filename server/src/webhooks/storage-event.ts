import type { StorageEvent, StorageEventPayload, StorageEventType } from 'botshelf/api'
import { newUlid } from '../store/ulid.js'

/** An event before it is recorded: its type, bot, payload and preview sentence. */
export interface StorageEventDraft<T extends StorageEventType = StorageEventType> {
  readonly type: T
  readonly botId: string
  readonly payload: StorageEventPayload<T>
  /** A short sentence: `file docs/a.pdf indexed`. */
  readonly preview: string
}

/**
 * A draft, typed by its event type.
 *
 * @example
 * ```ts
 * storageEventDraft('file.indexed', botId, { file }, `file ${file.key} indexed`)
 * ```
 */
export function storageEventDraft<T extends StorageEventType>(type: T, botId: string, payload: StorageEventPayload<T>, preview: string): StorageEventDraft<T> {
  return { type, botId, payload, preview }
}

/**
 * The bot event object of a draft (docs/wire-format.md §18): a new stable id (`evt_` + ULID, also the `webhook-id`),
 * `direction: 'incoming'`, `state: {}`.
 *
 * @example
 * ```ts
 * const event = toStorageEvent(draft, new Date())
 * ```
 */
export function toStorageEvent<T extends StorageEventType>(draft: StorageEventDraft<T>, now: Date): StorageEvent<T> {
  return {
    id: `evt_${newUlid(now)}`,
    botId: draft.botId,
    type: draft.type,
    direction: 'incoming',
    createdOn: now.toISOString(),
    payload: draft.payload,
    preview: draft.preview,
    state: {},
  }
}
