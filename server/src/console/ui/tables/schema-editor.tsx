import { useState } from 'preact/hooks'
import type { Table } from 'botshelf/client'
import { useSession } from '../core/session-context.js'
import { ErrorBanner } from '../components/error-banner.js'
import { ConfirmDialog } from '../components/confirm-dialog.js'
import { columnNames } from './column-kinds.js'
import { computedColumns } from './computed-cells.js'
import { ComputedEditor } from './computed-editor.js'
import { columnDefinition, columnTypeChoices, columnTypeOf, retypedColumn, type ColumnTypeChoice } from './column-types.js'

/**
 * A table's schema: rename, retype and remove columns, add one, edit a column's computation and switch the table's
 * compute on or off. Each change is one call with the service's own rules (a retype converts values or answers
 * `BreakingChanges`, a computation with a cycle is refused); its message shows on refusal.
 *
 * @example
 * ```tsx
 * <SchemaEditor table={table} onChanged={setTable} />
 * ```
 */
export function SchemaEditor({ table, onChanged }: { table: Table; onChanged: (table: Table) => void }) {
  const { api, can } = useSession()
  const [error, setError] = useState<unknown>()
  const [names, setNames] = useState<Record<string, string>>({})
  const [removing, setRemoving] = useState<string | undefined>()
  const [newColumn, setNewColumn] = useState({ name: '', type: 'string' as ColumnTypeChoice })
  const [computing, setComputing] = useState<string | undefined>()
  const editable = can.writeTables && !table.frozen
  const computed = computedColumns(table)

  /** Runs a change; true once it is saved (a refusal shows its message and keeps what was being edited). */
  const run = async (call: () => Promise<{ table: Table }>): Promise<boolean> => {
    setError(undefined)
    try {
      onChanged((await call()).table)
      setNames({})
      return true
    } catch (reason) {
      setError(reason)
      return false
    }
  }

  return (
    <section aria-labelledby="schema-title">
      <h2 id="schema-title">Schema{table.frozen ? ' (frozen: duplicate the table to change it)' : ''}</h2>
      <ErrorBanner error={error} onDismiss={() => setError(undefined)} />
      {editable ? (
        <label class="check">
          <input
            type="checkbox"
            checked={table.isComputeEnabled === true}
            onChange={(e) => {
              const isComputeEnabled = e.currentTarget.checked
              void run(() => api.client.updateTable({ table: table.name, isComputeEnabled }))
            }}
          />
          Compute enabled (computed columns fill themselves)
        </label>
      ) : (
        <p>Compute {table.isComputeEnabled ? 'enabled' : 'off'}</p>
      )}
      <table class="grid compact">
        <thead>
          <tr>
            <th scope="col">Column</th>
            <th scope="col">Type</th>
            <th scope="col">Computed</th>
            {editable && <th scope="col">Change</th>}
          </tr>
        </thead>
        <tbody>
          {columnNames(table).map((name) => {
            const column = table.schema.properties[name]!
            return (
              <tr key={name}>
                <td>
                  {editable ? (
                    <form
                      class="inline"
                      onSubmit={(event) => {
                        event.preventDefault()
                        const newName = (names[name] ?? name).trim()
                        if (newName !== name) void run(() => api.client.renameTableColumn({ table: table.name, name, newName }))
                      }}
                    >
                      <input aria-label={`Name of column ${name}`} value={names[name] ?? name} onInput={(e) => setNames({ ...names, [name]: e.currentTarget.value })} />
                      <button type="submit" disabled={(names[name] ?? name) === name}>
                        Rename
                      </button>
                    </form>
                  ) : (
                    name
                  )}
                </td>
                <td>
                  {editable ? (
                    <select
                      aria-label={`Type of column ${name}`}
                      value={columnTypeOf(column)}
                      onChange={(e) => {
                        const type = e.currentTarget.value as ColumnTypeChoice
                        void run(() => api.client.updateTable({ table: table.name, schema: { [name]: retypedColumn(column, type) } }))
                      }}
                    >
                      {columnTypeChoices.map((type) => (
                        <option key={type}>{type}</option>
                      ))}
                    </select>
                  ) : (
                    columnTypeOf(column)
                  )}
                </td>
                <td>
                  <code>{computed[name]?.text ?? ''}</code>
                  {editable && (
                    <button type="button" class="link" aria-label={`Edit computation of ${name}`} onClick={() => setComputing(name)}>
                      {computed[name] ? 'Edit' : 'Compute…'}
                    </button>
                  )}
                </td>
                {editable && (
                  <td>
                    <button type="button" class="link danger-text" onClick={() => setRemoving(name)}>
                      Remove
                    </button>
                  </td>
                )}
              </tr>
            )
          })}
        </tbody>
      </table>
      {editable && computing !== undefined && table.schema.properties[computing] && (
        <ComputedEditor
          key={computing}
          table={table}
          column={computing}
          onCancel={() => setComputing(undefined)}
          onSave={(definition) => {
            const name = computing
            void run(() => api.client.updateTable({ table: table.name, schema: { [name]: definition } })).then((saved) => saved && setComputing((open) => (open === name ? undefined : open)))
          }}
        />
      )}
      {editable && (
        <form
          class="inline"
          aria-label="Add a column"
          onSubmit={(event) => {
            event.preventDefault()
            const name = newColumn.name.trim()
            if (!name) return
            void run(() => api.client.updateTable({ table: table.name, schema: { [name]: columnDefinition(newColumn.type) } })).then(() => setNewColumn({ name: '', type: 'string' }))
          }}
        >
          <label>
            New column <input value={newColumn.name} onInput={(e) => setNewColumn({ ...newColumn, name: e.currentTarget.value })} />
          </label>
          <label>
            type{' '}
            <select value={newColumn.type} onChange={(e) => setNewColumn({ ...newColumn, type: e.currentTarget.value as ColumnTypeChoice })}>
              {columnTypeChoices.map((type) => (
                <option key={type}>{type}</option>
              ))}
            </select>
          </label>
          <button type="submit">Add column</button>
        </form>
      )}
      <ConfirmDialog
        open={removing !== undefined}
        title={`Remove column ${removing}?`}
        confirmLabel="Remove column"
        onCancel={() => setRemoving(undefined)}
        onConfirm={() => {
          const name = removing!
          setRemoving(undefined)
          void run(() => api.client.updateTable({ table: table.name, schema: { [name]: null } }))
        }}
      >
        <p>Its values are deleted from every row.</p>
      </ConfirmDialog>
    </section>
  )
}
