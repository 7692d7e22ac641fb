import { splitSentences } from './split-sentences.js'

/**
 * The share of `maximumChunkLength` that consecutive pieces of one long paragraph repeat: enough to carry a
 * sentence of context across the cut, small enough that little text is embedded twice (decision 0802).
 */
export const OVERLAP_RATIO = 0.15

/**
 * Cuts normalized text (single spaces) longer than `max` into pieces of at most `max` characters, at sentence
 * boundaries when sentences fit, else at spaces, else anywhere (never inside a surrogate pair). Each piece after
 * the first starts with the last whole sentences (or word groups) of the one before, up to `OVERLAP_RATIO × max`.
 *
 * @example
 * ```ts
 * splitWithOverlap('First one here. Second one. Third one here.', 30) // ['First one here. Second one.', 'Third one here.']
 * ```
 */
export function splitWithOverlap(text: string, max: number): string[] {
  if (text.length <= max) return [text]
  const overlapBudget = Math.floor(max * OVERLAP_RATIO)
  const units = toUnits(text, max - overlapBudget, Math.max(1, overlapBudget))
  const pieces: string[] = []
  let current: string[] = []
  let length = 0
  for (const unit of units) {
    const added = length === 0 ? unit.length : length + 1 + unit.length
    if (added <= max) {
      current.push(unit)
      length = added
      continue
    }
    pieces.push(current.join(' '))
    current = overlapOf(current, overlapBudget, max - 1 - unit.length)
    current.push(unit)
    length = current.join(' ').length
  }
  if (current.length > 0) pieces.push(current.join(' '))
  return pieces
}

/** The trailing units of `previous` whose joined length is at most `budget` and `room` (never all of them). */
function overlapOf(previous: string[], budget: number, room: number): string[] {
  const limit = Math.min(budget, room)
  const kept: string[] = []
  let length = -1
  for (let i = previous.length - 1; i >= 1; i--) {
    const next = length + 1 + previous[i]!.length
    if (next > limit) break
    kept.unshift(previous[i]!)
    length = next
  }
  return kept
}

/**
 * Sentences, except that a sentence longer than `unitMax` becomes word groups of at most `groupMax` characters (a
 * longer word stands alone, and a word longer than `unitMax` is sliced): small units let the overlap and the
 * packing work.
 */
function toUnits(text: string, unitMax: number, groupMax: number): string[] {
  const units: string[] = []
  for (const sentence of splitSentences(text)) {
    if (sentence.length <= unitMax) units.push(sentence)
    else units.push(...wordGroups(sentence, groupMax, unitMax))
  }
  return units
}

function wordGroups(sentence: string, groupMax: number, unitMax: number): string[] {
  const groups: string[] = []
  let current = ''
  for (const word of sentence.split(' ')) {
    if (word.length > groupMax) {
      if (current !== '') groups.push(current)
      current = ''
      groups.push(...(word.length > unitMax ? hardSlices(word, unitMax) : [word]))
      continue
    }
    if (current === '') current = word
    else if (current.length + 1 + word.length <= groupMax) current += ` ${word}`
    else {
      groups.push(current)
      current = word
    }
  }
  if (current !== '') groups.push(current)
  return groups
}

/**
 * Slices of at most `max` UTF-16 code units, never separating the two halves of a surrogate pair.
 *
 * @example
 * ```ts
 * hardSlices('abcdef', 4) // ['abcd', 'ef']
 * ```
 */
export function hardSlices(text: string, max: number): string[] {
  const slices: string[] = []
  let start = 0
  while (start < text.length) {
    let end = Math.min(text.length, start + max)
    const last = text.charCodeAt(end - 1)
    if (end < text.length && end - start > 1 && last >= 0xd800 && last <= 0xdbff) end--
    slices.push(text.slice(start, end))
    start = end
  }
  return slices
}
