import type { Row, Table } from 'botshelf/client'
import { describe, expect, it } from 'vitest'
import { cellStatus, computedColumns, recomputeUpdate } from './computed-cells.js'

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
