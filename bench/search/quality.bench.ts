/**
 * Retrieval quality of botshelf's search: recall@10 and nDCG@10 of lexical (BM25, SQLite FTS5), vector (exact cosine)
 * and hybrid (reciprocal rank fusion) ranking on the labelled question set, for the offline embedder and, when
 * BOTSHELF_EMBEDDINGS_URL is set, an embedding service. `--sweep` also measures the offline embedder's variants, the
 * RRF k constant and list weights, which is how their defaults were chosen (decisions 0811, 0812). The text each
 * passage is embedded from is measured too: alone, under its headings, with neighbours (decision 1458).
 *
 *   npm run bench:quality [-- --sweep]
 */
import { cpus } from 'node:os'
import { createOfflineEmbedder, createOpenAiCompatibleEmbedder, embedderOptionsFromEnv, fuseByReciprocalRank, RRF_K, type Embedder, type OfflineEmbedderOptions } from '../../server/src/search/embedding/index.js'
import { embeddingTexts } from '../../server/src/search/indexing/embedding-texts.js'
import { indexedText, loadCorpus, loadQuestions, type Question } from './corpus.js'
import { Bm25Index } from './fts5.js'
import { rareTermProbes } from './rare-terms.js'
import { mean, ndcgAt, recallAt } from './metrics.js'
import { ExactVectorIndex } from './vector-index.js'

const CUT = 10
const DEPTH = 100 // how deep each list goes into the fusion
const sweep = process.argv.includes('--sweep')

const passages = loadCorpus()
const questions = loadQuestions()
const documents = passages.map((p) => ({ id: p.id, text: indexedText(p) }))
const bm25 = new Bm25Index(documents)

type Ranker = (question: Question, index: number) => string[]
interface Scores { recall: number; ndcg: number }
interface Row { name: string; all: Scores; paraphrase: Scores; lexical: Scores }

function score(ranker: Ranker, subset: (q: Question) => boolean = () => true): Scores {
  const chosen = questions.map((q, i) => [q, i] as const).filter(([q]) => subset(q))
  const ranked = chosen.map(([q, i]) => [q, ranker(q, i)] as const)
  return { recall: mean(ranked.map(([q, r]) => recallAt(CUT, r, q.relevant))), ndcg: mean(ranked.map(([q, r]) => ndcgAt(CUT, r, q.relevant))) }
}

function row(name: string, ranker: Ranker): Row {
  return { name, all: score(ranker), paraphrase: score(ranker, (q) => q.paraphrase), lexical: score(ranker, (q) => !q.paraphrase) }
}

const f = (n: number) => n.toFixed(3)
function printTable(title: string, rows: Row[]): void {
  console.log(`\n### ${title}\n`)
  console.log('| ranking | recall@10 all | nDCG@10 all | recall@10 paraphrase | nDCG@10 paraphrase | recall@10 other | nDCG@10 other |')
  console.log('|---|---|---|---|---|---|---|')
  for (const r of rows) console.log(`| ${r.name} | ${f(r.all.recall)} | ${f(r.all.ndcg)} | ${f(r.paraphrase.recall)} | ${f(r.paraphrase.ndcg)} | ${f(r.lexical.recall)} | ${f(r.lexical.ndcg)} |`)
}

/** Embeds the corpus and the questions once; returns the vector ranking of each question. */
async function vectorRankings(embedder: Embedder): Promise<{ rankings: string[][]; passageMs: number; questionMs: number }> {
  const started = performance.now()
  const passageVectors = await embedder.embed(documents.map((d) => d.text), { purpose: 'passage' })
  const passageMs = performance.now() - started
  const questionVectors = await embedder.embed(questions.map((q) => q.question), { purpose: 'query' })
  const questionMs = performance.now() - started - passageMs
  const index = new ExactVectorIndex(documents.map((d) => d.id), passageVectors)
  return { rankings: questionVectors.map((v) => index.search(v, DEPTH)), passageMs, questionMs }
}

const lexicalAll = questions.map((q) => bm25.search(q.question, DEPTH, false))
const lexicalContent = questions.map((q) => bm25.search(q.question, DEPTH, true))
// The baseline is whichever BM25 query form scores better: with or without the stop words.
const lexicalRows = [row('BM25, every query word', (_, i) => lexicalAll[i]!), row('BM25, stop words dropped', (_, i) => lexicalContent[i]!)]
const lexical = lexicalRows[0]!.all.ndcg >= lexicalRows[1]!.all.ndcg ? lexicalAll : lexicalContent
const lexicalName = lexical === lexicalAll ? lexicalRows[0]!.name : lexicalRows[1]!.name
// The lexical list the hybrid fuses: content words only (a stop word matches nearly every passage, and those matches
// would crowd the vector list's finds out of the fusion).
let fusedLexical = lexicalContent

function hybrid(vector: string[][], k = RRF_K, weights?: [number, number]): Ranker {
  return (_, i) => fuseByReciprocalRank([fusedLexical[i]!, vector[i]!], { k, ...(weights ? { weights } : {}), limit: CUT }).map((r) => r.id)
}

async function rareTermCheck(embedder: Embedder): Promise<void> {
  const probes = rareTermProbes(documents)
  const vectors = await embedder.embed(probes.map((p) => p.word), { purpose: 'query' })
  const passageVectors = await embedder.embed(documents.map((d) => d.text), { purpose: 'passage' })
  const index = new ExactVectorIndex(documents.map((d) => d.id), passageVectors)
  const top1 = (rank: (i: number) => string[]) => mean(probes.map((p, i) => (rank(i)[0] === p.passage ? 1 : 0)))
  const lex = probes.map((p) => bm25.search(p.word, DEPTH, false))
  const vec = vectors.map((v) => index.search(v, DEPTH))
  console.log(`\n### Exact rare-term queries (${probes.length} probes: a word of 6+ letters whose stem is in one passage only, asked alone)\n`)
  console.log('| ranking | share ranked first | share in top 3 |\n|---|---|---|')
  const top3 = (rank: (i: number) => string[]) => mean(probes.map((p, i) => (rank(i).slice(0, 3).includes(p.passage) ? 1 : 0)))
  const line = (name: string, rank: (i: number) => string[]) => console.log(`| ${name} | ${f(top1(rank))} | ${f(top3(rank))} |`)
  line('BM25', (i) => lex[i]!)
  line(`vector`, (i) => vec[i]!)
  for (const [k, w] of [[1, 1], [10, 1], [RRF_K, 1], [RRF_K, 1.5], [RRF_K, 2], [10, 2]] as [number, number][]) {
    line(`hybrid k=${k}, vector × ${w}`, (i) => fuseByReciprocalRank([lex[i]!, vec[i]!], { k, weights: [1, w] }).map((r) => r.id))
  }
}

async function measure(embedder: Embedder, label: string): Promise<void> {
  const { rankings, passageMs, questionMs } = await vectorRankings(embedder)
  console.log(`\n${label}: ${embedder.id}; embedded ${documents.length} passages in ${passageMs.toFixed(0)} ms, ${questions.length} questions in ${questionMs.toFixed(0)} ms`)
  const rows = [row(`lexical: ${lexicalName}`, (_, i) => lexical[i]!), row('vector', (_, i) => rankings[i]!), row(`hybrid: RRF k=${RRF_K}`, hybrid(rankings))]
  if (sweep) {
    fusedLexical = lexicalAll
    rows.push(row(`hybrid: RRF k=${RRF_K}, lexical list with stop words`, hybrid(rankings)))
    fusedLexical = lexicalContent
  }
  printTable(`${label} (${embedder.label})`, rows)
  const ratio = rows[2]!.paraphrase.recall / Math.max(rows[0]!.paraphrase.recall, 1e-9)
  console.log(`\nParaphrase recall@10: hybrid ${f(rows[2]!.paraphrase.recall)} vs BM25 ${f(rows[0]!.paraphrase.recall)} = ${ratio.toFixed(2)}×; vector ${f(rows[1]!.paraphrase.recall)}`)
  if (sweep) {
    console.log(`\n### RRF k sweep (${label})\n\n| k | nDCG@10 all | recall@10 all | nDCG@10 paraphrase | nDCG@10 other |\n|---|---|---|---|---|`)
    for (const k of [1, 2, 3, 5, 10, 20, 30, 40, 60, 80, 100]) {
      const r = row(`${k}`, hybrid(rankings, k))
      console.log(`| ${k} | ${f(r.all.ndcg)} | ${f(r.all.recall)} | ${f(r.paraphrase.ndcg)} | ${f(r.lexical.ndcg)} |`)
    }
    console.log(`\n### RRF k × weight of the vector list (lexical weight 1), ${label}: nDCG@10 all / paraphrase / other\n`)
    const weights = [1, 1.5, 2, 3]
    console.log(`| k | ${weights.map((w) => `vector × ${w}`).join(' | ')} |\n|---|${weights.map(() => '---').join('|')}|`)
    for (const k of [1, 5, 10, 20, 30, 60, 100]) {
      const cells = weights.map((w) => {
        const r = row('', hybrid(rankings, k, [1, w]))
        return `${f(r.all.ndcg)} / ${f(r.paraphrase.ndcg)} / ${f(r.lexical.ndcg)}`
      })
      console.log(`| ${k} | ${cells.join(' | ')} |`)
    }
    await rareTermCheck(embedder)
  }
}

console.log(`# Retrieval quality — ${new Date().toISOString()} — ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, Node ${process.version}`)
console.log(`${passages.length} passages, ${questions.length} questions (${questions.filter((q) => q.paraphrase).length} paraphrases)`)
printTable('Lexical baselines', lexicalRows)

const loadStarted = performance.now()
const offline = await createOfflineEmbedder()
console.log(`\noffline embedder loaded in ${(performance.now() - loadStarted).toFixed(0)} ms`)
await measure(offline, 'Offline default')

if (sweep) {
  const variants: [string, OfflineEmbedderOptions][] = [
    ['word vectors only (SIF, a=1e-4)', { ngramShare: 0 }],
    ['word vectors, a=1e-3', { ngramShare: 0, sifA: 1e-3 }],
    ['word vectors, no common-direction removal', { ngramShare: 0, removeCommonDirection: false }],
    ['n-grams only', { ngramShare: 1 }],
    ['n-gram share 0.15', { ngramShare: 0.15 }],
    ['n-gram share 0.3', { ngramShare: 0.3 }],
    ['n-gram share 0.5', { ngramShare: 0.5 }],
    ['n-gram share 0.3, 512 buckets', { ngramShare: 0.3, ngramBuckets: 512 }],
  ]
  const rows: Row[] = []
  for (const [name, options] of variants) {
    const embedder = await createOfflineEmbedder(options)
    const { rankings } = await vectorRankings(embedder)
    rows.push(row(`${name}: vector`, (_, i) => rankings[i]!), row(`${name}: hybrid`, hybrid(rankings)))
  }
  printTable('Offline variants (hybrid at the default k)', rows)
}

/** Vector ranking by the text each passage is embedded from (`chunking.embedBreadcrumb`, `embeddedContextLevels`). */
async function embeddedTextRows(embedder: Embedder): Promise<void> {
  const questionVectors = await embedder.embed(questions.map((q) => q.question), { purpose: 'query' })
  // The corpus lists passages in document order; the title is the heading path.
  const docs = passages.map((p) => ({ content: p.text, breadcrumb: p.title.split(' › ') }))
  const first = (subset: (q: Question) => boolean, rankings: string[][]) => mean(questions.flatMap((q, i) => (subset(q) ? [q.relevant.includes(rankings[i]![0]!) ? 1 : 0] : [])))
  console.log(`\n### The text a passage is embedded from (${embedder.label}): vector ranking, recall@10 / first-rank\n`)
  console.log('| embedded text | all | paraphrase | other |\n|---|---|---|---|')
  for (const [breadcrumb, contextLevels] of [[false, 0], [true, 0], [false, 1], [true, 1], [true, 2], [true, 3]] as const) {
    const vectors = await embedder.embed(embeddingTexts(docs, { breadcrumb, contextLevels }), { purpose: 'passage' })
    const index = new ExactVectorIndex(documents.map((d) => d.id), vectors)
    const rankings = questionVectors.map((v) => index.search(v, DEPTH))
    const r = row('', (_, i) => rankings[i]!)
    const cell = (scores: Scores, subset: (q: Question) => boolean) => `${f(scores.recall)} / ${f(first(subset, rankings))}`
    const name = `${breadcrumb ? 'headings + passage' : 'passage alone'}${contextLevels > 0 ? `, ${contextLevels} neighbour(s) each side` : ''}`
    console.log(`| ${name} | ${cell(r.all, () => true)} | ${cell(r.paraphrase, (q) => q.paraphrase)} | ${cell(r.lexical, (q) => !q.paraphrase)} |`)
  }
}
await embeddedTextRows(offline)

const service = embedderOptionsFromEnv(process.env)
if (service) await measure(createOpenAiCompatibleEmbedder(service), 'Embedding service')
else console.log('\n(BOTSHELF_EMBEDDINGS_URL is not set: no embedding service measured)')
bm25.close()
