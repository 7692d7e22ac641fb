import { seededRandom } from '../../src/testing/seeded-random.js'

/** A seeded source of choices: the same seed replays the same fuzz run. */
export interface FuzzRandom {
  /** A float in [0, 1). */
  next(): number
  /** An integer in [min, max]. */
  int(min: number, max: number): number
  /** True with probability `p`. */
  chance(p: number): boolean
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T
}

/** Builds a {@link FuzzRandom} on mulberry32. */
export function fuzzRandom(seed: number): FuzzRandom {
  const next = seededRandom(seed)
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
  }
}
