/**
 * Builds bench/search/corpus.json from the project's docs (README.md, docs/*.md, docs/decisions/*.md) and the
 * generated help-centre documents (bench/search/generated/*.md): each heading section becomes one passage, or several
 * of at most ~160 words. The file is frozen on purpose: the questions' labels point at its passage ids, so re-run this
 * only deliberately (`npx tsx bench/search/build-corpus.ts`) and then re-check the labels (the quality-set test does).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { qualityFolder, type Passage } from './corpus.js'

const root = join(qualityFolder, '../..')
const MAX_WORDS = 160

function markdownFiles(): string[] {
  const list = (folder: string) =>
    readdirSync(join(root, folder))
      .filter((name) => name.endsWith('.md') && name !== 'search.md')
      .sort()
      .map((name) => `${folder}/${name}`)
  return ['README.md', ...list('docs'), ...list('docs/decisions'), ...list('bench/search/generated')]
}

function slug(heading: string): string {
  return heading.toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '').slice(0, 60) || 'section'
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length
}

/** Blank-line separated blocks; a fenced code block stays one block; a long block is cut into line groups. */
function blocksOf(lines: string[]): string[] {
  const blocks: string[] = []
  let current: string[] = []
  let fenced = false
  const flush = () => {
    if (current.length) blocks.push(...cut(current))
    current = []
  }
  for (const line of lines) {
    if (line.trim().startsWith('```')) fenced = !fenced
    if (!fenced && line.trim() === '') flush()
    else current.push(line)
  }
  flush()
  return blocks
}

function cut(lines: string[]): string[] {
  const pieces: string[] = []
  let piece: string[] = []
  for (const line of lines) {
    if (piece.length && wordCount([...piece, line].join(' ')) > MAX_WORDS) {
      pieces.push(piece.join('\n'))
      piece = []
    }
    piece.push(line)
  }
  if (piece.length) pieces.push(piece.join('\n'))
  return pieces
}

function passagesOf(file: string): Passage[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n')
  const passages: Passage[] = []
  const headings: string[] = []
  const used = new Map<string, number>()
  let body: string[] = []
  const flushSection = () => {
    const blocks = blocksOf(body)
    body = []
    let group: string[] = []
    const emit = () => {
      if (!group.length) return
      const base = `${file}#${slug(headings.at(-1) ?? 'top')}`
      const n = (used.get(base) ?? 0) + 1
      used.set(base, n)
      passages.push({ id: n === 1 ? base : `${base}-${n}`, source: file, title: headings.filter(Boolean).join(' › '), text: group.join('\n\n') })
      group = []
    }
    for (const block of blocks) {
      if (group.length && wordCount([...group, block].join(' ')) > MAX_WORDS) emit()
      group.push(block)
    }
    emit()
  }
  let fenced = false
  for (const line of lines) {
    if (line.trim().startsWith('```')) fenced = !fenced
    const heading = fenced ? null : /^(#{1,6})\s+(.*)$/.exec(line)
    if (heading) {
      flushSection()
      headings.length = heading[1]!.length - 1
      headings.push(heading[2]!.trim())
      continue
    }
    body.push(line)
  }
  flushSection()
  return passages
}

const passages = markdownFiles().flatMap(passagesOf)
const sources = [...new Set(passages.map((p) => p.source))]
writeFileSync(join(qualityFolder, 'corpus.json'), `${JSON.stringify({ builtFrom: sources, passages }, null, 1)}\n`)
console.log(`${passages.length} passages from ${sources.length} files → ${relative(root, join(qualityFolder, 'corpus.json'))}`)
