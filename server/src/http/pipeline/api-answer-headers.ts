/**
 * The headers of every answer of the API (decision 1464): `no-store`, so that no proxy or browser cache keeps an
 * answer (the one showing a new token's secret included), and `nosniff`, so that no browser reads a JSON answer as
 * anything else. Content downloads set their own (`Cache-Control` by visibility, `nosniff` and a sandbox CSP), and
 * the console's files are cacheable: neither takes these.
 *
 * @example
 * ```ts
 * if (takesApiAnswerHeaders(c.req.path)) for (const [name, value] of Object.entries(apiAnswerHeaders)) c.header(name, value)
 * ```
 */
export const apiAnswerHeaders: Readonly<Record<'cache-control' | 'x-content-type-options', string>> = Object.freeze({
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
})

/**
 * Whether the answer to a path takes {@link apiAnswerHeaders}: everything but content downloads and the console.
 *
 * @example
 * ```ts
 * takesApiAnswerHeaders('/v1/files') // true
 * takesApiAnswerHeaders('/v1/content/files/file_1') // false
 * ```
 */
export function takesApiAnswerHeaders(path: string): boolean {
  return !path.startsWith('/v1/content/') && path !== '/console' && !path.startsWith('/console/')
}
