/**
 * The relevance score's calibration and the floor (decisions 1431, 1432, 1433). For every question of the labelled
 * set and every exact rare-term probe it collects the evidence of the fused candidates (cosine of the offline
 * vectors, share of the query's terms the passage holds), fits the logistic model the server ships
 * (`server/src/search/ranking/relevance-score.ts`: copy the printed weights there when refitting), then measures:
 * the order (reciprocal rank fusion as before against the calibrated score), the calibration table, and floors
 * against the answerable questions and the off-topic ones (`off-topic.json`). The new paraphrase questions
 * (`paraphrases-2.json`) are never fitted on: they are the held-out check.
 *
 *   npm run bench:calibration
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { cpus } from 'node:os'
import { createOfflineEmbedder, fuseByReciprocalRank, RRF_K } from '../../server/src/search/embedding/index.js'
import { keepLexicalTop } from '../../server/src/search/ranking/keep-lexical-top.js'
import { candidateCoverages } from '../../server/src/search/ranking/query-terms.js'
import { rankByRelevance, RESCORED_CANDIDATES } from '../../server/src/search/ranking/rank-by-relevance.js'
import { FULL_COVERAGE, HYBRID_WEIGHTS, LEXICAL_WEIGHTS, relevanceFeatures } from '../../server/src/search/ranking/relevance-score.js'
import { indexedText, loadCorpus, loadQuestions, qualityFolder, type Question } from './corpus.js'
import { Bm25Index, contentStems } from './fts5.js'
import { mean, recallAt } from './metrics.js'
import { rareTermProbes } from './rare-terms.js'
import { ExactVectorIndex } from './vector-index.js'
import { fitLogistic } from './logistic-fit.js'

const DEPTH = 100
const refit = !process.argv.includes('--shipped')
const passages = loadCorpus()
const documents = passages.map((p) => ({ id: p.id, text: indexedText(p) }))
const textOf = new Map(documents.map((d) => [d.id, d.text]))
const bm25 = new Bm25Index(documents)
const embedder = await createOfflineEmbedder()
const passageVectors = await embedder.embed(documents.map((d) => d.text), { purpose: 'passage' })
const index = new ExactVectorIndex(documents.map((d) => d.id), passageVectors)
const vectorById = new Map(documents.map((d, i) => [d.id, passageVectors[i]!]))

const original = loadQuestions()
const readJson = <T>(name: string) => JSON.parse(readFileSync(join(qualityFolder, name), 'utf8')) as T
const newParaphrases = readJson<{ questions: Question[] }>('paraphrases-2.json').questions
const offTopic = readJson<{ questions: string[] }>('off-topic.json').questions
const probes: Question[] = rareTermProbes(documents).map((p, i) => ({ id: `rare-${i}`, question: p.word, relevant: [p.passage], paraphrase: false }))

// A new paraphrase question must share no content stem with its passage, as the original paraphrases do.
const questionStems = contentStems(newParaphrases.map((q) => q.question))
const sharing = newParaphrases.filter((q, i) => q.relevant.some((id) => [...contentStems([textOf.get(id)!])[0]!].some((stem) => questionStems[i]!.has(stem))))

function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!
  return s
}

interface Candidate { id: string; content: string; cosine: number; lexicalTop: boolean }
/** The fused candidates of a query, in the order the store hands them to the relevance ranking. */
async function candidatesOf(texts: readonly string[]): Promise<Candidate[][]> {
  const vectors = await embedder.embed(texts, { purpose: 'query' })
  return texts.map((text, i) => {
    const lexical = bm25.search(text, DEPTH, true)
    const vector = index.search(vectors[i]!, DEPTH)
    const fused = keepLexicalTop(fuseByReciprocalRank([lexical, vector], { k: RRF_K }).map((r) => ({ id: r.id, score: r.score })), lexical[0])
    return fused.map((r) => ({ id: r.id, content: textOf.get(r.id)!, cosine: cosine(vectors[i]!, vectorById.get(r.id)!), lexicalTop: r.id === lexical[0] }))
  })
}

const sets = {
  original: { questions: original, candidates: await candidatesOf(original.map((q) => q.question)) },
  newParaphrases: { questions: newParaphrases, candidates: await candidatesOf(newParaphrases.map((q) => q.question)) },
  probes: { questions: probes, candidates: await candidatesOf(probes.map((q) => q.question)) },
}
const offTopicCandidates = await candidatesOf(offTopic)

/** One training row per scored candidate: its features and whether it is a labelled answer. */
function rows(set: { questions: Question[]; candidates: Candidate[][] }, lexicalOnly: boolean): Array<{ x: number[]; y: number }> {
  return set.questions.flatMap((q, i) => {
    const list = set.candidates[i]!.slice(0, RESCORED_CANDIDATES)
    const coverages = candidateCoverages(q.question, list.map((c) => c.content))
    const evidence = list.map((c, j) => ({ cosine: lexicalOnly ? null : c.cosine, coverage: coverages[j]! }))
    const best = {
      cosine: lexicalOnly ? null : Math.max(...evidence.map((e) => e.cosine ?? -1)),
      coverage: Math.max(...evidence.map((e) => e.coverage)),
      fullMatches: evidence.filter((e) => e.coverage >= FULL_COVERAGE).length,
    }
    return list.map((c, j) => ({ x: relevanceFeatures(evidence[j]!, best), y: q.relevant.includes(c.id) ? 1 : 0 }))
  })
}

const fit = (data: Array<{ x: number[]; y: number }>): number[] => fitLogistic(data, 30)

const weights = refit
  ? { hybrid: fit([...rows(sets.original, false), ...rows(sets.probes, false)]), lexical: fit([...rows(sets.original, true), ...rows(sets.probes, true)]) }
  : { hybrid: HYBRID_WEIGHTS, lexical: LEXICAL_WEIGHTS }
const f3 = (n: number) => n.toFixed(3)
console.log(`# Relevance calibration — ${new Date().toISOString()} — ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, Node ${process.version}`)
console.log(`${passages.length} passages; ${original.length} labelled questions (${original.filter((q) => q.paraphrase).length} paraphrases), ${newParaphrases.length} new paraphrases (${sharing.length} sharing a content stem: ${sharing.map((q) => q.id).join(', ') || 'none'}), ${probes.length} rare-term probes, ${offTopic.length} off-topic queries`)
console.log(`${refit ? 'fitted' : 'shipped'} hybrid weights: [${weights.hybrid.map((w) => w.toFixed(3)).join(', ')}]`)
console.log(`${refit ? 'fitted' : 'shipped'} lexical weights: [${weights.lexical.map((w) => w.toFixed(3)).join(', ')}]`)

type Ranked = Array<{ id: string; score: number }>
const byFusion = (list: Candidate[]): Ranked => list.map((c, i) => ({ id: c.id, score: 1 / (RRF_K + i + 1) }))
const byRelevance = (floor: number, lexicalOnly = false) => (list: Candidate[], query: string): Ranked =>
  rankByRelevance(query, list.map((c) => ({ item: c.id, content: c.content, cosine: lexicalOnly ? null : c.cosine, lexicalTop: c.lexicalTop })), { floor, limit: 10, weights }).map((r) => ({ id: r.item, score: r.score }))

function measure(set: { questions: Question[]; candidates: Candidate[][] }, order: (list: Candidate[], query: string) => Ranked, subset: (q: Question) => boolean = () => true) {
  const chosen = set.questions.map((q, i) => [q, order(set.candidates[i]!, q.question).slice(0, 10)] as const).filter(([q]) => subset(q))
  const at = (ranked: Ranked, q: Question) => ranked.findIndex((r) => q.relevant.includes(r.id))
  return {
    recall: mean(chosen.map(([q, r]) => recallAt(10, r.map((x) => x.id), q.relevant))),
    first: mean(chosen.map(([q, r]) => (at(r, q) === 0 ? 1 : 0))),
    mrr: mean(chosen.map(([q, r]) => (at(r, q) < 0 ? 0 : 1 / (at(r, q) + 1)))),
    empty: chosen.filter(([, r]) => r.length === 0).length,
  }
}

console.log('\n### Order: fusion as before against the calibrated score (no floor)\n')
console.log('| order | recall@10 all | first all | MRR all | recall@10 paraphrase | first paraphrase | MRR paraphrase | recall@10 other | first other | new paraphrases: recall@10 / first / MRR | rare terms first |')
console.log('|---|---|---|---|---|---|---|---|---|---|---|')
for (const [name, order] of [['fusion (RRF k=5, lexical top 3)', byFusion], ['calibrated score', byRelevance(0)]] as const) {
  const a = measure(sets.original, order), p = measure(sets.original, order, (q) => q.paraphrase), o = measure(sets.original, order, (q) => !q.paraphrase)
  const n = measure(sets.newParaphrases, order), r = measure(sets.probes, order)
  console.log(`| ${name} | ${f3(a.recall)} | ${f3(a.first)} | ${f3(a.mrr)} | ${f3(p.recall)} | ${f3(p.first)} | ${f3(p.mrr)} | ${f3(o.recall)} | ${f3(o.first)} | ${f3(n.recall)} / ${f3(n.first)} / ${f3(n.mrr)} | ${f3(r.first)} |`)
}

console.log('\n### Calibration: results of the top 10 scoring at or above a threshold (labelled questions), and the floor\n')
console.log('| threshold | results per question | precision (labelled answer) | recall of labelled answers | as the floor: answerable questions left empty | off-topic queries left empty | top rare-term result kept |')
console.log('|---|---|---|---|---|---|---|')
const labelled = original.reduce((s, q) => s + q.relevant.length, 0)
for (const t of [0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7]) {
  let kept = 0
  let relevantKept = 0
  original.forEach((q, i) => {
    const top = byRelevance(0)(sets.original.candidates[i]!, q.question).filter((r) => r.score >= t)
    kept += top.length
    relevantKept += top.filter((r) => q.relevant.includes(r.id)).length
  })
  // As the floor, a passage holding every term of the query stays (the server's rule).
  const empty = measure(sets.original, byRelevance(t)).empty
  const offEmpty = offTopic.filter((q, i) => byRelevance(t)(offTopicCandidates[i]!, q).length === 0).length
  const rareKept = measure(sets.probes, byRelevance(t)).first
  console.log(`| ${t} | ${f3(kept / original.length)} | ${f3(relevantKept / Math.max(kept, 1))} | ${f3(relevantKept / labelled)} | ${empty} of ${original.length} | ${offEmpty} of ${offTopic.length} | ${f3(rareKept)} |`)
}

console.log('\n### Reliability: the score against the observed share of labelled answers (top 10 of every labelled question)\n')
console.log('| score | results | mean score | share that is the labelled answer |\n|---|---|---|---|')
const all = original.flatMap((q, i) => byRelevance(0)(sets.original.candidates[i]!, q.question).map((r) => ({ score: r.score, y: q.relevant.includes(r.id) ? 1 : 0 })))
for (const [lo, hi] of [[0, 0.1], [0.1, 0.3], [0.3, 0.5], [0.5, 0.7], [0.7, 1.01]] as const) {
  const bin = all.filter((r) => r.score >= lo && r.score < hi)
  if (bin.length) console.log(`| ${lo}–${Math.min(hi, 1)} | ${bin.length} | ${f3(mean(bin.map((r) => r.score)))} | ${f3(mean(bin.map((r) => r.y)))} |`)
}
const rareScores = sets.probes.questions.map((q, i) => byRelevance(0)(sets.probes.candidates[i]!, q.question)[0]?.score ?? 0).sort((a, b) => a - b)
console.log(`\nTop score of the rare-term probes: min ${f3(rareScores[0]!)}, p10 ${f3(rareScores[Math.floor(rareScores.length / 10)]!)}, median ${f3(rareScores[Math.floor(rareScores.length / 2)]!)}`)
const offTop = offTopic.map((q, i) => [q, byRelevance(0)(offTopicCandidates[i]!, q)[0]?.score ?? 0] as const).sort((a, b) => b[1] - a[1])
console.log(`Top score of the off-topic queries: ${offTop.slice(0, 5).map(([q, s]) => `"${q}" ${f3(s)}`).join(', ')}`)
bm25.close()
