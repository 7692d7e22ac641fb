import type { TableSchema } from 'botshelf/api'
import { describe, expect, it } from 'vitest'
import { cellResetsAfterWrite } from './cell-resets.js'
import { checkComputedColumns, computedColumnsOf, definitionKey, dependentColumns } from './computed-column.js'
import { convertAnswer } from './answer-conversion.js'
import { renderPrompt } from './prompt-template.js'

function schemaOf(columns: Record<string, { type?: string; computed?: Record<string, unknown> }>): TableSchema {
  const properties = Object.fromEntries(
    Object.entries(columns).map(([name, { type, computed }], index) => [name, { type: type ?? 'string', 'x-zui': { index, ...(computed ? { computed } : {}) } }]),
  )
  return { type: 'object', additionalProperties: true, properties } as TableSchema
}

const chain = schemaOf({
  reply: { computed: { action: 'ai', prompt: 'Reply {{sentiment}}', dependencies: ['sentiment', 'review'] } },
  review: {},
  sentiment: { computed: { action: 'ai', prompt: 'Sentiment {{review}}', dependencies: ['review'] } },
  length: { type: 'number', computed: { action: 'code', code: 'return row.review.length', dependencies: ['review'], enabled: false } },
})

describe('computed column definitions', () => {
  it('orders computed columns after those they read, and follows changes down the chains', () => {
    expect(computedColumnsOf(chain).map((c) => c.name)).toEqual(['sentiment', 'reply', 'length'])
    expect(dependentColumns(computedColumnsOf(chain), ['review']).map((c) => c.name)).toEqual(['sentiment', 'reply', 'length'])
    expect(dependentColumns(computedColumnsOf(chain), ['sentiment']).map((c) => c.name)).toEqual(['reply'])
  })

  it('refuses cycles, missing dependencies and definitions that cannot run, naming the column', () => {
    expect(() => checkComputedColumns(schemaOf({ a: { computed: { action: 'code', code: 'return 1', dependencies: ['b'] } }, b: { computed: { action: 'code', code: 'return 1', dependencies: ['a'] } } }))).toThrow(
      /schema\.properties\.a\.x-zui\.computed\.dependencies: expected no cycle between computed columns, received a → b → a/,
    )
    expect(() => checkComputedColumns(schemaOf({ a: { computed: { action: 'code', code: 'return 1', dependencies: ['nope'] } } }))).toThrow(/received "nope" \(no such column\)/)
    expect(() => checkComputedColumns(schemaOf({ a: { computed: { action: 'code', code: 'return 1', dependencies: ['a'] } } }))).toThrow(/the column itself/)
    expect(() => checkComputedColumns(schemaOf({ a: { computed: { action: 'ai' } } }))).toThrow(/a\.x-zui\.computed\.prompt: expected a prompt/)
    expect(() => checkComputedColumns(schemaOf({ a: { computed: { action: 'workflow' } } }))).toThrow(/workflowId/)
    expect(() => checkComputedColumns(chain)).not.toThrow()
  })

  it('tells a changed definition from the same one written with keys in another order', () => {
    const [first] = computedColumnsOf(schemaOf({ a: { computed: { action: 'ai', prompt: 'p', dependencies: [] } } }))
    const [reordered] = computedColumnsOf(schemaOf({ a: { computed: { dependencies: [], prompt: 'p', action: 'ai' } } }))
    const [changed] = computedColumnsOf(schemaOf({ a: { computed: { action: 'ai', prompt: 'q', dependencies: [] } } }))
    expect(definitionKey(first!)).toBe(definitionKey(reordered!))
    expect(definitionKey(first!)).not.toBe(definitionKey(changed!))
  })

  it('resets the cells a write makes due: all on a new row, the dependents on an update, disabled when off', () => {
    const columns = computedColumnsOf(chain)
    expect(cellResetsAfterWrite({ isComputeEnabled: true }, columns, [{ id: 1, created: false, columns: ['sentiment'] }])).toEqual([{ rowId: 1, column: 'reply', stale: true }])
    expect(cellResetsAfterWrite({ isComputeEnabled: true }, columns, [{ id: 2, created: true }])).toEqual([
      { rowId: 2, column: 'sentiment', stale: true },
      { rowId: 2, column: 'reply', stale: true },
      { rowId: 2, column: 'length', stale: false },
    ])
    expect(cellResetsAfterWrite({ isComputeEnabled: false }, columns, [{ id: 3, created: false, columns: ['review'] }]).every((reset) => !reset.stale)).toBe(true)
  })
})

describe('prompts and answers', () => {
  it('fills {{columns}} with text as is and other values as JSON', () => {
    expect(renderPrompt('{{ a }} / {{b}} / {{c}} / {{missing}}', { a: 'x', b: { n: 1 }, c: null })).toBe('x / {"n":1} /  / ')
  })

  it('converts answers to the column type, or says why not', () => {
    expect(convertAnswer(' "4.5" ', { type: 'number' })).toEqual({ ok: true, value: 4.5 })
    expect(convertAnswer('Yes.', { type: 'boolean' })).toEqual({ ok: true, value: true })
    expect(convertAnswer('POSITIVE', { type: 'string', enum: ['positive', 'negative'] })).toEqual({ ok: true, value: 'positive' })
    expect(convertAnswer('2026-03-01', { type: 'string', format: 'date-time' })).toEqual({ ok: true, value: '2026-03-01T00:00:00.000Z' })
    expect(convertAnswer('```json\n{"value":{"a":1}}\n```', { type: 'object' })).toEqual({ ok: true, value: { a: 1 } })
    expect(convertAnswer('[1,2]', { type: 'array' })).toEqual({ ok: true, value: [1, 2] })
    expect(convertAnswer('about four', { type: 'number' })).toEqual({ ok: false, reason: `the model's answer does not fit the column: expected a number, received "about four"` })
    expect(convertAnswer('maybe', { type: 'string', enum: ['a', 'b'] })).toMatchObject({ ok: false, reason: expect.stringMatching(/expected one of "a", "b"/) })
  })
})
