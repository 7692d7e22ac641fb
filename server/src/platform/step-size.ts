/** Bounds of {@link nextStepSize}. */
export interface StepBounds {
  /** How long one step should hold the event loop, in milliseconds, e.g. `8`. */
  targetMs: number
  /** The smallest step, e.g. `200` rows. */
  min: number
  /** The largest step, e.g. `8000` rows. */
  max: number
}

/**
 * The size of the next step of work that runs on the event loop in steps (an import's publishing, a training's
 * commit): the last size scaled by how far the time it held the loop was from `targetMs`, within `min` and `max`.
 * A step too quick to time counts as 0.5 ms, so a size grows by at most `targetMs / 0.5` at once.
 *
 * @example
 * ```ts
 * nextStepSize(1000, 16, { targetMs: 8, min: 200, max: 8000 }) // 500
 * ```
 */
export function nextStepSize(size: number, heldMs: number, bounds: StepBounds): number {
  return Math.round(Math.min(bounds.max, Math.max(bounds.min, (size * bounds.targetMs) / Math.max(heldMs, 0.5))))
}
