/**
 * Sweep of the offline model's paraphrase evidence (decision 1434): each variant of the relevance model is refitted
 * on the labelled set plus the exact rare-term probes (as `npm run bench:calibration` does) and measured on the old
 * set, the held-out new paraphrases (`paraphrases-2.json`) and the probes. The variants: the model of decision 1431,
 * the cosine alone, a listwise fit, word alignment (each query word's best cosine with a word of the passage, from
 * the offline embedder's word vectors: query expansion by the nearest words, in effect), and the cosine-gap features
 * 1434 ships. Recall@10 is the share of labelled passages found (decision 1434 quotes an earlier any-hit count); the rare-term rule of
 * `rankByRelevance` is left out (the calibration bench applies it). Name filters select variants.
 *
 *   npx tsx bench/search/paraphrase-sweep.ts [1434 cosine ...]
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createOfflineEmbedder, fuseByReciprocalRank, RRF_K, STOP_WORDS, wordsOf } from '../../server/src/search/embedding/index.js'
import { defaultWordVectorsPath, readWordVectorsFile } from '../../server/src/search/embedding/offline/index.js'
import { keepLexicalTop } from '../../server/src/search/ranking/keep-lexical-top.js'
import { candidateCoverages } from '../../server/src/search/ranking/query-terms.js'
import { lightStem } from '../../server/src/search/ranking/light-stem.js'
import { FULL_COVERAGE, relevanceFeatures } from '../../server/src/search/ranking/relevance-score.js'
import { indexedText, loadCorpus, loadQuestions, qualityFolder, type Question } from './corpus.js'
import { Bm25Index } from './fts5.js'
import { mean, recallAt } from './metrics.js'
import { rareTermProbes } from './rare-terms.js'
import { ExactVectorIndex } from './vector-index.js'
import { fitLogistic, sigmoid, solveLinear } from './logistic-fit.js'

const DEPTH = 100
const passages = loadCorpus()
const documents = passages.map((p) => ({ id: p.id, text: indexedText(p) }))
const textOf = new Map(documents.map((d) => [d.id, d.text]))
const bm25 = new Bm25Index(documents)
const embedder = await createOfflineEmbedder()
const passageVectors = await embedder.embed(documents.map((d) => d.text), { purpose: 'passage' })
const index = new ExactVectorIndex(documents.map((d) => d.id), passageVectors)
const vectorById = new Map(documents.map((d, i) => [d.id, passageVectors[i]!]))
const readJson = <T>(name: string) => JSON.parse(readFileSync(join(qualityFolder, name), 'utf8')) as T
const original = loadQuestions()
const newParaphrases = readJson<{ questions: Question[] }>('paraphrases-2.json').questions
const probes: Question[] = rareTermProbes(documents).map((p, i) => ({ id: `rare-${i}`, question: p.word, relevant: [p.passage], paraphrase: false }))

// Word vectors, unit length, as floats.
const table = readWordVectorsFile(defaultWordVectorsPath())
const rowOf = new Map(table.words.map((w, i) => [w, i]))
const unitCache = new Map<string, Float32Array | null>()
function unit(word: string): Float32Array | null {
  let v = unitCache.get(word)
  if (v !== undefined) return v
  const row = rowOf.get(word)
  if (row === undefined) v = null
  else {
    v = new Float32Array(table.dimensions)
    let n = 0
    for (let j = 0; j < table.dimensions; j++) {
      v[j] = table.vectors[row * table.dimensions + j]!
      n += v[j]! * v[j]!
    }
    n = Math.sqrt(n)
    for (let j = 0; j < table.dimensions; j++) v[j]! /= n
  }
  unitCache.set(word, v)
  return v
}
const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!
  return s
}
const contentWords = (text: string) => {
  const words = wordsOf(text).filter((w) => !STOP_WORDS.has(w))
  return [...new Set(words)]
}
const sifWeight = (word: string) => {
  const row = rowOf.get(word) ?? table.words.length
  const p = 1 / ((row + 1) * Math.log(1.78 * 400_000))
  return 1e-4 / (1e-4 + p)
}

/** For each query word, its best cosine with a word of the passage (1 for the same stem). */
function alignment(query: string, passage: string): number[] {
  const q = contentWords(query)
  const p = contentWords(passage)
  const pStems = new Set(p.map(lightStem))
  const pVectors = p.map(unit).filter((v): v is Float32Array => v !== null)
  return q.map((word) => {
    if (pStems.has(lightStem(word))) return 1
    const v = unit(word)
    if (!v) return 0
    let best = 0
    for (const pv of pVectors) best = Math.max(best, dot(v, pv))
    return best
  })
}

interface Candidate { id: string; content: string; cosine: number; lexicalTop: boolean; align: number[] }
function cosine(a: Float32Array, b: Float32Array): number {
  return dot(a, b)
}
async function candidatesOf(texts: readonly string[]): Promise<Candidate[][]> {
  const vectors = await embedder.embed(texts, { purpose: 'query' })
  return texts.map((text, i) => {
    const lexical = bm25.search(text, DEPTH, true)
    const vector = index.search(vectors[i]!, DEPTH)
    const fused = keepLexicalTop(fuseByReciprocalRank([lexical, vector], { k: RRF_K }).map((r) => ({ id: r.id, score: r.score })), lexical[0])
    return fused.slice(0, 100).map((r) => ({ id: r.id, content: textOf.get(r.id)!, cosine: cosine(vectors[i]!, vectorById.get(r.id)!), lexicalTop: r.id === lexical[0], align: alignment(text, textOf.get(r.id)!) }))
  })
}

const started = performance.now()
const sets = {
  original: { questions: original, candidates: await candidatesOf(original.map((q) => q.question)) },
  fresh: { questions: newParaphrases, candidates: await candidatesOf(newParaphrases.map((q) => q.question)) },
  probes: { questions: probes, candidates: await candidatesOf(probes.map((q) => q.question)) },
}
console.log(`candidates in ${((performance.now() - started) / 1000).toFixed(1)} s`)
type SetOf = typeof sets.original

type Extra = (query: string, c: Candidate, all: Candidate[]) => number[]

function featureRows(set: SetOf, extra: Extra) {
  return set.questions.map((q, i) => {
    const list = set.candidates[i]!
    const coverages = coversOf(q.question, list)
    const best = { cosine: Math.max(...list.map((c) => c.cosine)), coverage: Math.max(...coverages), fullMatches: coverages.filter((c) => c >= FULL_COVERAGE).length }
    return list.map((c, j) => ({ x: [...relevanceFeatures({ cosine: c.cosine, coverage: coverages[j]! }, best), ...extra(q.question, c, list)], y: q.relevant.includes(c.id) ? 1 : 0, id: c.id }))
  })
}

const fit = (data: Array<{ x: number[]; y: number }>): number[] => fitLogistic(data, 25)

function evaluate(rows: Array<Array<{ x: number[]; y: number; id: string }>>, questions: Question[], w: number[], subset: (q: Question) => boolean = () => true) {
  const out = { recall: [] as number[], first: [] as number[], mrr: [] as number[] }
  rows.forEach((list, i) => {
    const q = questions[i]!
    if (!subset(q)) return
    const ranked = list.map((r, order) => ({ id: r.id, s: sigmoid(r.x.reduce((s, v, j) => s + v * w[j]!, 0)), order })).sort((a, b) => b.s - a.s || a.order - b.order).slice(0, 10)
    const at = ranked.findIndex((r) => q.relevant.includes(r.id))
    out.recall.push(recallAt(10, ranked.map((r) => r.id), q.relevant))
    out.first.push(at === 0 ? 1 : 0)
    out.mrr.push(at >= 0 ? 1 / (at + 1) : 0)
  })
  return { recall: mean(out.recall), first: mean(out.first), mrr: mean(out.mrr) }
}

const f3 = (n: number) => n.toFixed(3)
const weighted = (a: number[], ws: number[]) => (a.length ? a.reduce((s, v, i) => s + v * ws[i]!, 0) / ws.reduce((s, v) => s + v, 0) : 0)
const qWeights = new Map<string, number[]>()
const weightsOf = (query: string, kind: 'sif' | 'length' | 'flat') => {
  const key = `${kind}:${query}`
  let ws = qWeights.get(key)
  if (!ws) {
    ws = contentWords(query).map((w) => (kind === 'sif' ? sifWeight(w) : kind === 'length' ? Math.min(12, Math.max(2, w.length)) : 1))
    qWeights.set(key, ws)
  }
  return ws
}
const soft = (a: number[], t: number) => a.map((v) => Math.max(0, (v - t) / (1 - t)))

/** Listwise fit (conditional logit): per query, the softmax over its candidates of the labelled answer. */
function fitListwise(lists: Array<Array<{ x: number[]; y: number }>>, l2 = 1e-2): number[] {
  const usable = lists.filter((l) => l.some((r) => r.y === 1))
  const n = usable[0]![0]!.x.length
  let w = new Array<number>(n).fill(0)
  for (let iteration = 0; iteration < 60; iteration++) {
    const g = new Array<number>(n).fill(0)
    const h = Array.from({ length: n }, () => new Array<number>(n).fill(0))
    for (const list of usable) {
      const s = list.map((r) => r.x.reduce((a, v, j) => a + v * w[j]!, 0))
      const m = Math.max(...s)
      const e = s.map((v) => Math.exp(v - m))
      const z = e.reduce((a, v) => a + v, 0)
      const p = e.map((v) => v / z)
      const positives = list.filter((r) => r.y === 1).length
      const mean = new Array<number>(n).fill(0)
      list.forEach((r, i) => r.x.forEach((v, j) => (mean[j] = mean[j]! + p[i]! * v)))
      list.forEach((r, i) => {
        if (r.y === 1) r.x.forEach((v, j) => (g[j] = g[j]! - (v - mean[j]!) / positives))
        for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) h[j]![k] = h[j]![k]! + p[i]! * (r.x[j]! - mean[j]!) * (r.x[k]! - mean[k]!)
      })
    }
    for (let j = 0; j < n; j++) {
      g[j] = g[j]! + l2 * w[j]!
      h[j]![j] = h[j]![j]! + l2
    }
    const step = solveLinear(h, g)
    const norm = Math.sqrt(step.reduce((a, v) => a + v * v, 0))
    const scale = norm > 2 ? 2 / norm : 1
    w = w.map((v, j) => v - scale * step[j]!)
  }
  return w
}

type Fit = 'pointwise' | 'listwise'
interface Variant2 { name: string; extra: Extra; fit?: Fit; drop?: number[] }
const bestCosCache = new Map<Candidate[], number>()
const cosGap = (c: Candidate, all: Candidate[]) => { let b = bestCosCache.get(all); if (b === undefined) bestCosCache.set(all, (b = Math.max(...all.map((x) => x.cosine)))); return c.cosine - b }
const coverCache = new Map<Candidate[], number[]>()
const coversOf = (q: string, all: Candidate[]) => {
  let c = coverCache.get(all)
  if (!c) coverCache.set(all, (c = candidateCoverages(q, all.map((x) => x.content))))
  return c
}
const bestCov = (q: string, all: Candidate[]) => Math.max(...coversOf(q, all))
// relevanceFeatures holds the model of decision 1434 (features 0-9); the model of 1431 is its first seven.
const MODEL_1431 = { drop: [7, 8, 9] }
const withCos = (cols: number[]) => ({ drop: [7, 8, 9].filter((j) => !cols.includes(j)) })
const variants: Variant2[] = [
  { name: '1431 model (shipped before)', extra: () => [], ...MODEL_1431 },
  { name: 'cosine alone', extra: () => [], drop: [2, 3, 4, 5, 6, 7, 8, 9] },
  { name: '1431 model fitted listwise', extra: () => [], ...MODEL_1431, fit: 'listwise' },
  { name: '1431 + word alignment (sif-weighted best cosine per query word)', extra: (q, c) => [weighted(c.align, weightsOf(q, 'sif'))], ...MODEL_1431 },
  { name: '1431 + word alignment (length-weighted)', extra: (q, c) => [weighted(c.align, weightsOf(q, 'length'))], ...MODEL_1431 },
  { name: '1431 + word alignment over 0.4', extra: (q, c) => [weighted(soft(c.align, 0.4), weightsOf(q, 'sif'))], ...MODEL_1431 },
  { name: '1431 + cosine gap', extra: () => [], ...withCos([7]) },
  { name: '1431 + cosine gap, listwise', extra: () => [], ...withCos([7]), fit: 'listwise' },
  { name: '1431 + cosine × (1 − best coverage)', extra: (q, c, all) => [c.cosine * (1 - bestCov(q, all))], ...MODEL_1431 },
  { name: '1431 + cosine gap × (1 − best coverage)', extra: () => [], ...withCos([8]) },
  { name: '1431 + cosine gap + cosine × (1 − best coverage) + coverage gap × best coverage', extra: (q, c, all) => [c.cosine * (1 - bestCov(q, all))], ...withCos([7, 9]) },
  { name: '1434: 1431 + cosine gap + cosine gap × (1 − best coverage) + coverage gap × best coverage', extra: () => [] },
  { name: '1434 + word alignment over 0.4', extra: (q, c) => [weighted(soft(c.align, 0.4), weightsOf(q, 'sif'))] },
]

console.log('\n| variant | recall@10 all | first all | MRR all | recall@10 para | first para | MRR para | new para recall / first / MRR | rare first |')
console.log('|---|---|---|---|---|---|---|---|---|')
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'))
for (const v of variants) {
  if (only.length && !only.some((o) => v.name.includes(o))) continue
  const strip = (rows: ReturnType<typeof featureRows>) => (v.drop ? rows.map((l) => l.map((r) => ({ ...r, x: r.x.filter((_, j) => !v.drop!.includes(j)) }))) : rows)
  const o = strip(featureRows(sets.original, v.extra))
  const n = strip(featureRows(sets.fresh, v.extra))
  const p = strip(featureRows(sets.probes, v.extra))
  const w = v.fit === 'listwise' ? fitListwise([...o, ...p]) : fit([...o.flat(), ...p.flat()])
  const a = evaluate(o, sets.original.questions, w)
  const para = evaluate(o, sets.original.questions, w, (q) => q.paraphrase)
  const nn = evaluate(n, sets.fresh.questions, w)
  const r = evaluate(p, sets.probes.questions, w)
  console.log(`| ${v.name} | ${f3(a.recall)} | ${f3(a.first)} | ${f3(a.mrr)} | ${f3(para.recall)} | ${f3(para.first)} | ${f3(para.mrr)} | ${f3(nn.recall)} / ${f3(nn.first)} / ${f3(nn.mrr)} | ${f3(r.first)} |  w=[${w.map((x) => x.toFixed(2)).join(', ')}]`)
}
bm25.close()
