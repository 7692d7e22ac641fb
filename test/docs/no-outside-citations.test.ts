/**
 * Comments and docs may only cite documents that ship with the repository. The platform facts the code relies on
 * live in docs/wire-format.md (cited as `docs/wire-format.md §N`); a citation of the service spec, the wire
 * reference or the design brief points at files readers of this repository do not have.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')

/** Folders and files scanned, from the repository root. */
const scanned = [
  'src/index.ts',
  'src/event',
  'src/runtime',
  'src/webhook',
  'src/client',
  'src/api',
  'src/issues',
  'src/testing',
  'types',
  'docs',
  'examples',
  'README.md',
  'server/src',
  'server/scripts',
  'bench',
  'test/files',
  'test/tables',
  'test/server',
  'test/client',
  'test/e2e',
  'src/errors',
  'test/helpers',
  'test/cli',
  'test/testing',
  'test/docs/jsdoc.test.ts',
]

/** Ways a comment points at a document kept outside the repository. */
const outsideCitations: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: 'spec section', pattern: /\bspec(ification)?\s*§/i },
  { name: 'wire reference', pattern: /\bwire(\s+reference)?\s*§|\bwire reference\b/i },
  { name: 'service spec', pattern: /\bservice[- ]spec\b/i },
  { name: 'wire-compat document', pattern: /\bwire-compat\b/i },
  { name: 'shared reference folder', pattern: /\bshared\/(reference|design)\b/i },
  { name: 'design brief', pattern: /\b(the|design) brief\b|\(brief[,:]/i },
  { name: 'the spec', pattern: /\bthe spec\b/i },
]

const textFile = /\.(ts|mts|cts|js|mjs|cjs|json|md|ya?ml|txt)$/

function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules') return []
    const child = join(path, entry.name)
    if (entry.isDirectory()) return filesUnder(child)
    return textFile.test(entry.name) ? [child] : []
  })
}

/** Every `file:line: text` whose text cites an outside document. */
function findCitations(base: string, paths: readonly string[]): string[] {
  const found: string[] = []
  for (const file of paths.flatMap((path) => filesUnder(join(base, path)))) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        const hit = outsideCitations.find(({ pattern }) => pattern.test(line))
        if (hit) found.push(`${relative(base, file)}:${index + 1}: ${line.trim()} (${hit.name})`)
      })
  }
  return found
}

describe('citations', () => {
  it('point only at documents inside the repository (docs/wire-format.md §N for platform facts)', () => {
    const files = scanned.flatMap((path) => filesUnder(join(root, path)))
    // A wrong path list would scan nothing and pass.
    expect(files.length).toBeGreaterThan(100)
    const citations = findCitations(root, scanned)
    expect(citations, `citations of documents outside the repository:\n${citations.join('\n')}\n`).toEqual([])
  })

  it('are recognised in their usual forms, and ordinary words are not', () => {
    const cites = [
      'The `event` object (spec §2.3).',
      'Spec §5 gives a table of principals',
      'The File object (wire reference §4.1).',
      'the wire ambiguity of dotted tag keys (wire §1)',
      'in the order of the wire reference.',
      'see ../shared/reference/service-spec.md',
      'as wire-compat.md says',
      'read as the brief says',
      '(brief, "How we read the spec")',
      'the top-level properties the spec does not describe',
    ]
    const fine = [
      'wire-compatible with @botpress/client',
      'sent again on a fresh connection (RFC 9110 §9.2.2)',
      'the Standard Webhooks spec is a test',
      'cited as docs/wire-format.md §18',
      'renders a received value briefly',
    ]
    const matches = (line: string) => outsideCitations.some(({ pattern }) => pattern.test(line))
    expect(cites.filter((line) => !matches(line))).toEqual([])
    expect(fine.filter(matches)).toEqual([])
  })
})
