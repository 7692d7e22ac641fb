/** The retrieval-quality set's types and loaders: a frozen corpus of passages and labelled questions. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** One passage of the corpus: what a search index would store as one chunk. */
export interface Passage {
  /** Stable id: `<file>#<heading-slug>[-n]`. */
  id: string
  /** The markdown file it comes from. */
  source: string
  /** The heading path, e.g. `Files API › Operations`. */
  title: string
  text: string
}

/** One labelled question. */
export interface Question {
  id: string
  question: string
  /** Ids of the passages that answer it (at least one). */
  relevant: string[]
  /** True when the question shares no content word (after stop words and stemming) with its relevant passages. */
  paraphrase: boolean
}

export const qualityFolder = import.meta.dirname

/** The text indexed for a passage: its heading path, then its body. */
export function indexedText(passage: Passage): string {
  return `${passage.title}\n${passage.text}`
}

export function loadCorpus(): Passage[] {
  return (JSON.parse(readFileSync(join(qualityFolder, 'corpus.json'), 'utf8')) as { passages: Passage[] }).passages
}

export function loadQuestions(): Question[] {
  return (JSON.parse(readFileSync(join(qualityFolder, 'questions.json'), 'utf8')) as { questions: Question[] }).questions
}
