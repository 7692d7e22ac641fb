/**
 * Likely causes of a refused event, read from its shape: a body that wraps the event, a Cloud API `createdAt`, a
 * Botpress v12 `IO.Event`. Only computed once an event was refused, so valid events never pay for it.
 *
 * @example
 * ```ts
 * refusalHints({ event: { type: 'text' } }) // ['the body wraps the event as { event: {...} }: ...']
 * ```
 */
export function refusalHints(input: unknown): string[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return []
  const record = input as Record<string, unknown>
  const hints: string[] = []
  const inner = record['event']
  if (typeof inner === 'object' && inner !== null && !Array.isArray(inner) && record['type'] === undefined) {
    hints.push('the body wraps the event as { event: {...} }: pass body.event, or use parseLegacyEvent')
  }
  if (record['createdOn'] === undefined && record['createdAt'] !== undefined) {
    hints.push('createdAt found where createdOn was expected (a Cloud API event?): rename it, or use parseLegacyEvent')
  }
  if (record['threadId'] !== undefined || record['target'] !== undefined || record['channel'] !== undefined) {
    hints.push('target/threadId/channel found (a Botpress v12 IO.Event?): use parseLegacyEvent to map them to userId/conversationId/integration')
  }
  return hints
}
