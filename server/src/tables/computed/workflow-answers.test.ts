import { describe, expect, it } from 'vitest'
import type { ComputedColumn } from './computed-column.js'
import { workflowAnswers } from './workflow-answers.js'

const columns = [
  { name: 'label', action: 'workflow', workflowId: 'classify', dependencies: ['text'], enabled: true },
  { name: 'summary', action: 'ai', prompt: 'Sum: {{text}}', dependencies: ['text'], enabled: true },
] as unknown as ComputedColumn[]

describe('workflowAnswers', () => {
  it('settles a written workflow column computed and a reported failure failed, ignoring other columns', () => {
    expect(
      workflowAnswers(columns, [
        { id: 1, label: 'billing', summary: 'x' },
        { id: 2, computed: { label: { status: 'failed', error: 'the CRM is down' } } },
        { id: 3, text: 'only a dependency' },
      ]),
    ).toEqual([
      { rowId: 1, column: 'label', status: 'computed', updatedBy: 'workflow:classify' },
      { rowId: 2, column: 'label', status: 'failed', error: 'the CRM is down', updatedBy: 'workflow:classify' },
    ])
  })

  it('refuses a malformed report naming the field, what was expected and what was received', () => {
    expect(() => workflowAnswers(columns, [{ id: 1, computed: [] }])).toThrow(/rows\[0\]\.computed: expected an object .* received an array/)
    expect(() => workflowAnswers(columns, [{ id: 1 }, { id: 2, computed: { label: { status: 'computed' } } }])).toThrow(/rows\[1\]\.computed\.label: expected \{ status: 'failed', error: <reason> \}.*received \{"status":"computed"\}/)
  })

  it('cuts a long reason to 2000 characters', () => {
    const [answer] = workflowAnswers(columns, [{ id: 1, computed: { label: { status: 'failed', error: 'x'.repeat(5_000) } } }])
    expect(answer!.error).toHaveLength(2_000)
  })
})
