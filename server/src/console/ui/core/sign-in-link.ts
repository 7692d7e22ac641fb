/**
 * The one-time code of a sign-in link (`/console/#sign-in=<code>`), or undefined when the fragment holds none.
 * The code travels in the fragment so that it never reaches a server log or a `Referer` header.
 *
 * @example
 * ```ts
 * signInCodeFrom('#sign-in=abc_DEF-1') // 'abc_DEF-1'
 * signInCodeFrom('#/files') // undefined
 * ```
 */
export function signInCodeFrom(hash: string): string | undefined {
  const match = /^#sign-in=([A-Za-z0-9_-]{1,200})$/.exec(hash)
  return match?.[1]
}
