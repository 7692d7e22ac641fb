/**
 * Where a keyset page ended: the sort value and the id of its last item. The next page starts strictly after it,
 * so items that exist throughout a walk are never skipped or repeated. The service seals positions into
 * `nextToken`s bound to their query; stores never see a token.
 *
 * @example
 * ```ts
 * const after: PagePosition = { value: '2026-01-01T00:00:00.000Z', id: 'file_01K...' }
 * ```
 */
export interface PagePosition {
  value: string | number
  id: string
}
