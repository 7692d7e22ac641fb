/**
 * A small deterministic pseudo-random generator (mulberry32): the same seed gives the same sequence on every
 * machine. For fake data only, never for secrets.
 *
 * @example
 * ```ts
 * const random = seededRandom(42)
 * const pick = Math.floor(random() * 10) // the same on every run
 * ```
 */
export function seededRandom(seed: number): () => number {
  let state = Math.trunc(seed) >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz'

/** An id like `evt_k3j9...`: a prefix and `length` characters drawn from `random`. */
export function fakeId(random: () => number, prefix: string, length = 20): string {
  let id = ''
  for (let i = 0; i < length; i++) id += ALPHABET[Math.floor(random() * ALPHABET.length)]
  return `${prefix}_${id}`
}
