import { useState } from 'preact/hooks'
import type { Table } from 'botshelf/client'
import { columnNames } from './column-kinds.js'
import { computedColumnUpdate, computedDraft, type ComputedDraft } from './computed-cells.js'

/**
 * Edits one column's computation: the action (`ai` a prompt over other columns with `{{name}}`, `code` the body of
 * an async function of `row`, `workflow` an action of the bot, or not computed), its prompt, model, code or workflow
 * id, the columns it reads, and whether it runs. Saving sends the column through `updateTable`, whose checks (a
 * missing prompt, a cycle) show as the caller's error.
 *
 * @example
 * ```tsx
 * <ComputedEditor table={table} column="sentiment" onSave={(definition) => save(definition)} onCancel={close} />
 * ```
 */
export function ComputedEditor({ table, column, onSave, onCancel }: { table: Table; column: string; onSave: (definition: Record<string, unknown>) => void; onCancel: () => void }) {
  const definition = table.schema.properties[column]!
  const [draft, setDraft] = useState<ComputedDraft>(() => computedDraft(definition))
  const others = columnNames(table).filter((name) => name !== column)
  const set = (patch: Partial<ComputedDraft>) => setDraft({ ...draft, ...patch })
  return (
    <form
      class="card computed-editor"
      aria-labelledby="computed-editor-title"
      onSubmit={(event) => {
        event.preventDefault()
        onSave(computedColumnUpdate(definition, draft))
      }}
    >
      <h3 id="computed-editor-title">Computation of {column}</h3>
      <label>
        Action{' '}
        <select value={draft.action} onChange={(e) => set({ action: e.currentTarget.value as ComputedDraft['action'] })}>
          <option value="">not computed</option>
          <option value="ai">ai: a prompt to the language model</option>
          <option value="code">code: a function of the row</option>
          <option value="workflow">workflow: an action of the bot</option>
        </select>
      </label>
      {draft.action === 'ai' && (
        <>
          <label>
            Prompt (name the columns it reads as {'{{column}}'})
            <textarea rows={3} value={draft.prompt} onInput={(e) => set({ prompt: e.currentTarget.value })} />
          </label>
          <label>
            Model (empty: the service's default) <input value={draft.model} onInput={(e) => set({ model: e.currentTarget.value })} />
          </label>
        </>
      )}
      {draft.action === 'code' && (
        <label>
          Code (the body of an async function of row; return the value)
          <textarea rows={4} spellcheck={false} value={draft.code} onInput={(e) => set({ code: e.currentTarget.value })} />
        </label>
      )}
      {draft.action === 'workflow' && (
        <label>
          Workflow id <input value={draft.workflowId} onInput={(e) => set({ workflowId: e.currentTarget.value })} />
        </label>
      )}
      {draft.action !== '' && (
        <>
          <fieldset>
            <legend>Reads the columns</legend>
            {others.map((name) => (
              <label key={name} class="check">
                <input
                  type="checkbox"
                  checked={draft.dependencies.includes(name)}
                  onChange={(e) => set({ dependencies: e.currentTarget.checked ? [...draft.dependencies, name] : draft.dependencies.filter((d) => d !== name) })}
                />
                {name}
              </label>
            ))}
          </fieldset>
          <label class="check">
            <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
            Runs (off: its cells are disabled)
          </label>
        </>
      )}
      <div class="actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" class="primary">
          Save computation
        </button>
      </div>
    </form>
  )
}
