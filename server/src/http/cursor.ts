import { createHash } from 'node:crypto'
import { z } from 'zod'
import { ServiceError } from './service-error.js'
import type { PagePosition } from '../store/index.js'
import { openToken, sealToken } from './sealed-token.js'

const CursorSchema = z.object({ q: z.string(), p: z.unknown() })

/**
 * A fingerprint of the query a cursor belongs to (everything but `nextToken` and `pageSize`), so a token
 * cannot be replayed against a different filter or sort.
 *
 * @example
 * ```ts
 * queryFingerprint('listFiles', { tags: { a: 'b' }, sortField: 'key' })
 * ```
 */
export function queryFingerprint(listName: string, query: Record<string, unknown>): string {
  const { nextToken: _next, pageSize: _size, ...rest } = query
  return createHash('sha256').update(listName).update(stableJson(rest)).digest('base64url').slice(0, 16)
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/**
 * Makes the opaque `meta.nextToken` of a list page: the keyset position of the last item, bound to the
 * query's fingerprint and sealed with the app's signing key.
 *
 * @example
 * ```ts
 * const nextToken = encodeCursor(services.signingKey, fingerprint, { value: '2026-11-22T00:00:00.000Z', id: 'file_1' })
 * ```
 */
export function encodeCursor(key: Buffer, fingerprint: string, position: unknown): string {
  return sealToken(key, 'cursor', { q: fingerprint, p: position })
}

/**
 * Reads a `nextToken` back into a keyset position, checking it with `isPosition`. A token that was altered,
 * signed by another server, or made for another query is an `InvalidQuery` (400) naming `nextToken`.
 *
 * @example
 * ```ts
 * const after = decodeCursor(services.signingKey, fingerprint, query.nextToken, (p): p is string => typeof p === 'string')
 * ```
 */
export function decodeCursor<T>(key: Buffer, fingerprint: string, token: string, isPosition: (value: unknown) => value is T): T {
  const parsed = CursorSchema.safeParse(openToken(key, 'cursor', token))
  if (!parsed.success || !isPosition(parsed.data.p)) {
    throw new ServiceError('InvalidQuery', 'nextToken: expected a token returned by a previous page of this list, received an invalid or altered token')
  }
  if (parsed.data.q !== fingerprint) {
    throw new ServiceError('InvalidQuery', 'nextToken: this token belongs to a list with other filters or sorting; send the same query with it')
  }
  return parsed.data.p
}

/**
 * Whether a value opened from a cursor is a keyset position (`{ value, id }`), the one position shape every list
 * of the service pages on.
 *
 * @example
 * ```ts
 * const after = decodeCursor(key, fingerprint, token, isPagePosition)
 * ```
 */
export function isPagePosition(value: unknown): value is PagePosition {
  if (!value || typeof value !== 'object') return false
  const { value: v, id } = value as Record<string, unknown>
  return (typeof v === 'string' || typeof v === 'number') && typeof id === 'string'
}
