/**
 * How one computation of a cell ended: a value, a failure with its reason, or a remote service that cannot be
 * reached (the cell stays pending and is tried again after `retryAfterMs`).
 *
 * @example
 * ```ts
 * const outcome: Computation = { kind: 'value', value: 'positive', updatedBy: 'ai:gpt-4o-mini' }
 * ```
 */
export type Computation =
  | { kind: 'value'; value: unknown; updatedBy: string }
  | { kind: 'failed'; reason: string; updatedBy: string }
  | { kind: 'unavailable'; reason: string; retryAfterMs: number }
