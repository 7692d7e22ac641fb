// The console reads a subscription's event types as one comma-separated field: empty means every type.
import type { Client } from 'botshelf/client'

/** The `types` of a subscription as the client takes them. */
export type WebhookTypes = NonNullable<Parameters<Client['createWebhook']>[0]['types']>

/**
 * Splits the types field into the `types` the API takes (trimmed, no blanks).
 *
 * @example
 * ```ts
 * parseTypes(' file.created, file.deleted ,') // ['file.created', 'file.deleted']
 * ```
 */
export function parseTypes(field: string): WebhookTypes {
  // Unchecked here on purpose: the service answers an unknown type with an InvalidPayload naming it.
  return field
    .split(',')
    .map((type) => type.trim())
    .filter((type) => type !== '') as WebhookTypes
}

/**
 * The types of a subscription as the field shows them; absent or empty is "every type".
 *
 * @example
 * ```ts
 * describeTypes([]) // 'every type'
 * ```
 */
export function describeTypes(types: readonly string[] | undefined): string {
  return types && types.length > 0 ? types.join(', ') : 'every type'
}
