/** Probes for "an exact rare-term match is not buried": a word found in one passage only, asked alone. */
import { STOP_WORDS, wordsOf } from '../../server/src/search/embedding/index.js'
import { fts5Stems } from './fts5.js'

/** One probe per passage holding a word of 6+ letters whose FTS5 stem no other passage has. */
export function rareTermProbes(documents: readonly { id: string; text: string }[]): { passage: string; word: string }[] {
  // Unique by FTS5 stem, not by spelling: "configured" is not rare when another passage says "configuration".
  const stemFrequency = new Map<string, number>()
  for (const stems of fts5Stems(documents.map((d) => d.text))) for (const stem of stems) stemFrequency.set(stem, (stemFrequency.get(stem) ?? 0) + 1)
  const wordsByPassage = documents.map((d) => [...new Set(wordsOf(d.text).filter((w) => w.length >= 6 && /^\p{L}+$/u.test(w) && !STOP_WORDS.has(w)))].sort())
  const candidates = [...new Set(wordsByPassage.flat())]
  const stemOf = new Map(fts5Stems(candidates).map((stems, i) => [candidates[i]!, [...stems][0] ?? '']))
  return documents.flatMap((d, i) => {
    const unique = wordsByPassage[i]!.filter((w) => stemFrequency.get(stemOf.get(w)!) === 1)
    return unique.length ? [{ passage: d.id, word: unique[Math.floor(unique.length / 2)]! }] : []
  })
}
