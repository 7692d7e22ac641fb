/**
 * Percent-encodes like `qs` (RFC 3986): everything but letters, digits and `-._~` is escaped, so
 * `!'()*` are escaped too (encodeURIComponent leaves them).
 */
function encodeComponent(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

function appendValue(pairs: string[], key: string, value: unknown): void {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return
  if (value === null) {
    pairs.push(`${encodeComponent(key)}=`)
    return
  }
  if (value instanceof Date) {
    pairs.push(`${encodeComponent(key)}=${encodeComponent(value.toISOString())}`)
    return
  }
  if (Array.isArray(value)) {
    // Arrays repeat the key: ids=a&ids=b (a one-element array is indistinguishable from a scalar).
    for (const item of value) appendValue(pairs, key, item)
    return
  }
  if (typeof value === 'object') {
    // Nested objects use dot notation: tags.category=Sales, tags.channel.not=webchat.
    for (const [childKey, childValue] of Object.entries(value)) appendValue(pairs, `${key}.${childKey}`, childValue)
    return
  }
  pairs.push(`${encodeComponent(key)}=${encodeComponent(String(value))}`)
}

/**
 * Builds a query string the way `@botpress/client` does (`qs.stringify` with `allowDots`,
 * `arrayFormat: 'repeat'`, `encode: true`): dot notation for nested objects, repeated keys for
 * arrays, `undefined` dropped, booleans and numbers as text. Returns `''` when nothing is left.
 * Written here (rather than importing `qs`) so the client has no dependency that pulls Node modules.
 *
 * @example
 * ```ts
 * encodeQuery({ tags: { category: ['Sales', 'Marketing'], channel: { not: 'webchat' } }, ids: ['a', 'b'], indexed: true })
 * // 'tags.category=Sales&tags.category=Marketing&tags.channel.not=webchat&ids=a&ids=b&indexed=true'
 * ```
 */
export function encodeQuery(query: Record<string, unknown>): string {
  const pairs: string[] = []
  for (const [key, value] of Object.entries(query)) appendValue(pairs, key, value)
  return pairs.join('&')
}
