import { useState } from 'preact/hooks'
import { buildFilter, builderOperators, parseRawFilter, type BuilderCondition, type BuilderOperator, type ColumnKind } from './filter-query.js'

/**
 * The rows filter: a builder (column, operator, value rows, ANDed) that writes the filter language, shown as JSON
 * under it, and a raw JSON mode for anything the builder does not write (`$or`, `$not`, dot paths).
 *
 * @example
 * ```tsx
 * <FilterBuilder kinds={columnKinds(table)} onApply={(filter) => setFilter(filter)} onProblem={() => setRows(undefined)} />
 * ```
 */
export function FilterBuilder({ kinds, onApply, onProblem }: { kinds: Record<string, ColumnKind>; onApply: (filter: Record<string, unknown> | undefined) => void; onProblem?: (problem: string) => void }) {
  const columns = Object.keys(kinds)
  const [raw, setRaw] = useState(false)
  const [conditions, setConditions] = useState<BuilderCondition[]>([])
  const [text, setText] = useState('')
  const [problem, setProblem] = useState<string | undefined>()
  const built = raw ? parseRawFilter(text) : buildFilter(conditions, kinds)

  const apply = (event: Event) => {
    event.preventDefault()
    if (!built.ok) {
      setProblem(built.error)
      // The rows shown were found with the filter before: the caller hides them until a filter applies.
      return onProblem?.(built.error)
    }
    setProblem(undefined)
    onApply(built.filter)
  }
  const change = (index: number, patch: Partial<BuilderCondition>) => setConditions(conditions.map((c, i) => (i === index ? { ...c, ...patch } : c)))

  return (
    <form class="filter card" onSubmit={apply} aria-labelledby="filter-title">
      <div class="filter-head">
        <h3 id="filter-title">Filter</h3>
        <label class="check">
          <input
            type="checkbox"
            checked={raw}
            onChange={(e) => {
              const next = e.currentTarget.checked
              if (next && built.ok && built.filter) setText(JSON.stringify(built.filter, null, 2))
              setRaw(next)
            }}
          />
          Raw JSON
        </label>
      </div>
      {raw ? (
        <>
          <label for="raw-filter" class="visually-hidden">
            Filter as JSON
          </label>
          <textarea id="raw-filter" rows={5} spellcheck={false} value={text} onInput={(e) => setText(e.currentTarget.value)} placeholder='{ "age": { "$gte": 18 } }' />
        </>
      ) : (
        <>
          {conditions.map((condition, index) => (
            <div class="inline condition" key={index} role="group" aria-label={`Condition ${index + 1}`}>
              <select aria-label={`Condition ${index + 1} column`} value={condition.column} onChange={(e) => change(index, { column: e.currentTarget.value })}>
                {columns.map((column) => (
                  <option key={column}>{column}</option>
                ))}
              </select>
              <select aria-label={`Condition ${index + 1} operator`} value={condition.op} onChange={(e) => change(index, { op: e.currentTarget.value as BuilderOperator })}>
                {builderOperators.map(({ op, label }) => (
                  <option key={op} value={op}>
                    {label}
                  </option>
                ))}
              </select>
              <input aria-label={`Condition ${index + 1} value`} value={condition.value} onInput={(e) => change(index, { value: e.currentTarget.value })} />
              <button type="button" class="link" aria-label={`Remove condition ${index + 1}`} onClick={() => setConditions(conditions.filter((_, i) => i !== index))}>
                ✕
              </button>
            </div>
          ))}
          <button type="button" onClick={() => setConditions([...conditions, { column: columns.find((c) => c !== 'id' && c !== 'createdAt' && c !== 'updatedAt') ?? 'id', op: '$eq', value: '' }])}>
            Add a condition
          </button>
          <pre class="filter-json" aria-label="The filter as the service receives it">
            {built.ok ? JSON.stringify(built.filter ?? {}) : built.error}
          </pre>
        </>
      )}
      {problem && <p role="alert">{problem}</p>}
      <button type="submit" class="primary">
        Apply filter
      </button>
    </form>
  )
}
