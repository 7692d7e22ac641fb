import type { DispatchReport } from '../runtime/index.js'

/** Where the in-process service "posts" the test bot's storage events: never a socket, the runtime itself. */
export const IN_PROCESS_EVENTS_URL = 'http://botshelf.test/__storage-events'

/** One storage event the test bot's hooks received, with what they did. */
export interface ReceivedStorageEvent {
  readonly event: { id: string; type: string; payload: Record<string, unknown> }
  readonly report: DispatchReport
}

/**
 * The bridge from the in-process service's delivery jobs to the test bot's runtime: a `fetch` the service's
 * webhooks use (the subscription's URL is {@link IN_PROCESS_EVENTS_URL}), which hands each signed body to the
 * runtime and answers 200, and a way for a test to wait until an event of a type has been handled.
 *
 * @example
 * ```ts
 * const events = storageEventBridge((event) => runtime.dispatch(event))
 * await service.createApp({ memory: true, webhooks: { fetch: events.fetch } })
 * ```
 */
export function storageEventBridge(dispatch: (event: unknown) => Promise<DispatchReport>) {
  const received: ReceivedStorageEvent[] = []
  const waiters: Array<{ type: string; resolve: (value: ReceivedStorageEvent) => void; from: number }> = []
  return {
    received,
    async fetch(_url: string, init: { body: string }): Promise<{ status: number; body: null; arrayBuffer(): Promise<ArrayBuffer> }> {
      const event = JSON.parse(init.body) as ReceivedStorageEvent['event']
      const report = await dispatch(event)
      const entry = { event, report }
      received.push(entry)
      for (const waiter of waiters.splice(0)) {
        if (waiter.type === event.type) waiter.resolve(entry)
        else waiters.push(waiter)
      }
      return { status: 200, body: null, arrayBuffer: async () => new ArrayBuffer(0) }
    },
    /** The next (or an already received, not yet awaited) event of a type, once the hooks handled it. */
    waitForEvent(type: string): Promise<ReceivedStorageEvent> {
      const found = received.find((entry) => entry.event.type === type)
      if (found) {
        received.splice(received.indexOf(found), 1)
        return Promise.resolve(found)
      }
      return new Promise((resolve) => waiters.push({ type, resolve: (entry) => (received.splice(received.indexOf(entry), 1), resolve(entry)), from: received.length }))
    },
  }
}
