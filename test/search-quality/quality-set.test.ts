/**
 * The retrieval-quality set (bench/search/) is sound: enough questions, a third of them paraphrases, every label
 * pointing at a real passage, and every paraphrase sharing no content word (after the stop-word list and Porter
 * stemming, as FTS5 stems) with any passage it is labelled with.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { indexedText, loadCorpus, loadQuestions, qualityFolder, type Question } from '../../bench/search/corpus.js'
import { contentStems } from '../../bench/search/fts5.js'

const passages = loadCorpus()
const questions = loadQuestions()
const byId = new Map(passages.map((passage) => [passage.id, passage]))
const newParaphrases = (JSON.parse(readFileSync(join(qualityFolder, 'paraphrases-2.json'), 'utf8')) as { questions: Question[] }).questions

/** The paraphrases among `set` that share a content stem with a passage they are labelled with, described. */
function sharingAWord(set: readonly Question[]): string[] {
  const paraphrases = set.filter((q) => q.paraphrase)
  const questionStems = contentStems(paraphrases.map((q) => q.question))
  return paraphrases.flatMap((q, i) => {
    const passageStems = contentStems(q.relevant.map((id) => indexedText(byId.get(id)!)))
    const common = [...questionStems[i]!].filter((stem) => passageStems.some((stems) => stems.has(stem)))
    return common.length ? [`${q.id} "${q.question}" shares ${common.join(', ')}`] : []
  })
}

describe('the retrieval-quality set', () => {
  it('has at least 150 questions, at least a third of them paraphrases, with unique ids', () => {
    expect(questions.length).toBeGreaterThanOrEqual(150)
    expect(questions.filter((q) => q.paraphrase).length * 3).toBeGreaterThanOrEqual(questions.length)
    expect(new Set(questions.map((q) => q.id)).size).toBe(questions.length)
    expect(new Set(passages.map((p) => p.id)).size).toBe(passages.length)
  })

  it('labels every question with passages that exist', () => {
    const dangling = questions.flatMap((q) => (q.relevant.length === 0 ? [`${q.id}: no relevant passage`] : q.relevant.filter((id) => !byId.has(id)).map((id) => `${q.id}: ${id}`)))
    expect(dangling).toEqual([])
  })

  it('has paraphrases that share no content word with their passages', () => {
    expect(sharingAWord(questions)).toEqual([])
  })

  it('has a held-out set of new paraphrases, none sharing a content word with its passage, none among the old questions', () => {
    expect(newParaphrases.length).toBeGreaterThanOrEqual(30)
    expect(newParaphrases.every((q) => q.paraphrase)).toBe(true)
    expect(newParaphrases.flatMap((q) => q.relevant.filter((id) => !byId.has(id)))).toEqual([])
    const old = new Set(questions.map((q) => q.question.toLowerCase()))
    expect(newParaphrases.filter((q) => old.has(q.question.toLowerCase()))).toEqual([])
    expect(new Set(newParaphrases.map((q) => q.id)).size).toBe(newParaphrases.length)
    expect(sharingAWord(newParaphrases)).toEqual([])
  })

  it('checks what it claims: a question that repeats a passage word is caught', () => {
    const [question, passage] = contentStems(['Where are refunds paid?', 'Refunds are issued within 14 days.'])
    expect([...question!].filter((stem) => passage!.has(stem))).toEqual(['refund'])
    const [onlyStopWords] = contentStems(['How do I get it back?'])
    expect([...onlyStopWords!]).toEqual(['back'])
  })
})
