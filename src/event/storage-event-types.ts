import { storageEventPayloads, storageEventTypes, type StorageEventPayload, type StorageEventType } from '../api/webhooks/storage-events.js'
import { storeBuiltInPayloadSchemas, type PayloadSchema } from './payload-registry.js'

/**
 * The storage event types of botshelf's service (`file.indexed`, `table.rows.created`, ...) and their payloads,
 * as `EventTypeRegistry` entries: one definition shared with the service (`botshelf/api`), so a hook's
 * `types: ['file.indexed']` narrows `event.payload.file`.
 *
 * @example
 * ```ts
 * defineHook({ name: 'indexed', point: 'afterIncoming', types: ['file.indexed'], handler: ({ event }) => event.payload.file.key })
 * ```
 */
export type StorageEventRegistry = { [T in StorageEventType]: StorageEventPayload<T> }

declare module './event-type-registry.js' {
  // The storage events are built-in types of every runtime.
  interface EventTypeRegistry extends StorageEventRegistry {}
}

storeBuiltInPayloadSchemas(storageEventPayloads as unknown as Readonly<Record<string, PayloadSchema>>)

/** Every storage event type the runtime knows as built-in. */
export { storageEventTypes }
