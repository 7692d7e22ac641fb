import type { Row, Table } from 'botshelf/client'
import { describe, expect, it } from 'vitest'
import { cellStatus, computedColumnUpdate, computedColumns, computedDraft, recomputeUpdate } from './computed-cells.js'

const table = {
  id: 'table_1',
  name: 'reviewsTable',
  schema: {
    type: 'object',
    additionalProperties: true,
    properties: {
      review: { type: 'string', 'x-zui': { index: 0 } },
      sentiment: { type: 'string', 'x-zui': { index: 1, computed: { action: 'ai', prompt: 'Sentiment: {{review}}', dependencies: ['review'] } } },
    },
  },
} as unknown as Table

describe('computed cells in the console', () => {
  it('describes computed columns, shows statuses until computed, and recomputes by writing back what they read', () => {
    expect(computedColumns(table)).toEqual({ sentiment: { action: 'ai', dependencies: ['review'], text: 'ai: Sentiment: {{review}}' } })
    const failed = { id: 3, review: 'x', computed: { sentiment: { status: 'failed', error: 'no model' } } } as unknown as Row
    expect(cellStatus(failed, 'sentiment')).toEqual({ label: 'failed', title: 'no model' })
    expect(cellStatus({ ...failed, computed: { sentiment: { status: 'computed' } } } as unknown as Row, 'sentiment')).toBeUndefined()
    expect(cellStatus({ ...failed, stale: ['sentiment'] } as unknown as Row, 'sentiment')).toMatchObject({ label: 'pending' })
    expect(recomputeUpdate(table, failed)).toEqual({ id: 3, review: 'x' })
  })
})

describe('the computed definition editor', () => {
  it('drafts a definition, writes only what its action uses, and removes it', () => {
    const sentiment = table.schema.properties['sentiment']!
    const draft = computedDraft(sentiment)
    expect(draft).toEqual({ action: 'ai', prompt: 'Sentiment: {{review}}', model: '', code: '', workflowId: '', dependencies: ['review'], enabled: true })
    expect(computedColumnUpdate(sentiment, { ...draft, model: ' small ', enabled: false })).toEqual({
      type: 'string',
      'x-zui': { computed: { action: 'ai', prompt: 'Sentiment: {{review}}', model: 'small', dependencies: ['review'], enabled: false } },
    })
    expect(computedColumnUpdate(sentiment, { ...draft, action: 'code', code: 'return 1' })).toEqual({
      type: 'string',
      'x-zui': { computed: { action: 'code', code: 'return 1', dependencies: ['review'], enabled: true } },
    })
    expect(computedColumnUpdate(sentiment, { ...draft, action: 'workflow', workflowId: ' label ' })['x-zui']).toEqual({ computed: { action: 'workflow', workflowId: 'label', dependencies: ['review'], enabled: true } })
    expect(computedColumnUpdate(sentiment, { ...draft, action: '' })).toEqual({ type: 'string', 'x-zui': {} })
    expect(computedDraft(table.schema.properties['review']!).action).toBe('')
  })
})
