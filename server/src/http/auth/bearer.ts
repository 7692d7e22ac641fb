/**
 * Extracts the token of an `Authorization: Bearer <token>` header, matching the scheme case-insensitively
 * (the official client sends `Bearer`, the docs' curl examples `bearer`). Returns `undefined` when the
 * header is absent or not a bearer credential.
 *
 * @example
 * ```ts
 * bearerToken('bearer bs_abc') // 'bs_abc'
 * bearerToken('Basic dXNlcjpwYXNz') // undefined
 * ```
 */
export function bearerToken(header: string | undefined | null): string | undefined {
  if (!header) return undefined
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header)
  return match?.[1]
}
