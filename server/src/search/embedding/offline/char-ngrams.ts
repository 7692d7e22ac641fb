/**
 * Adds the hashed character n-grams (3 to 5 characters, with word-boundary marks) of `word` into `target`, each
 * multiplied by `weight` and a sign taken from the hash (so collisions cancel out on average instead of piling up).
 * Words that share a stem or a spelling share n-grams: "indexing" and "reindexed" meet on "ind", "nde", "dex"...
 *
 * @example
 * ```ts
 * const vector = new Float32Array(512)
 * addCharNgrams(vector, 'refund', 1)
 * ```
 */
export function addCharNgrams(target: Float32Array, word: string, weight: number): void {
  const marked = `<${word}>`
  for (let n = 3; n <= 5; n++) {
    for (let start = 0; start + n <= marked.length; start++) {
      const hash = fnv1a(marked, start, start + n)
      const bucket = (hash >>> 1) % target.length
      target[bucket]! += hash & 1 ? weight : -weight
    }
  }
}

/** 32-bit FNV-1a over the UTF-16 code units `text[from..to)`: fast, stable across runs and platforms. */
function fnv1a(text: string, from: number, to: number): number {
  let hash = 0x811c9dc5
  for (let i = from; i < to; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}
