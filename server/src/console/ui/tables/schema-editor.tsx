import { useState } from 'preact/hooks'
import type { Table } from 'botshelf/client'
import { useSession } from '../core/session-context.js'
import { ErrorBanner } from '../components/error-banner.js'
import { ConfirmDialog } from '../components/confirm-dialog.js'
import { columnNames } from './column-kinds.js'
import { computedColumns } from './computed-cells.js'
import { columnDefinition, columnTypeChoices, columnTypeOf, retypedColumn, type ColumnTypeChoice } from './column-types.js'

/**
 * A table's schema: rename, retype and remove columns, add one. Each change is one call with the service's own
 * rules (a retype converts values or answers `BreakingChanges`); its message shows on refusal.
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
  const editable = can.writeTables && !table.frozen
  const computed = computedColumns(table)

  const run = async (call: () => Promise<{ table: Table }>) => {
    setError(undefined)
    try {
      onChanged((await call()).table)
      setNames({})
    } catch (reason) {
      setError(reason)
    }
  }

  return (
    <section aria-labelledby="schema-title">
      <h2 id="schema-title">Schema{table.frozen ? ' (frozen: duplicate the table to change it)' : ''}</h2>
      <ErrorBanner error={error} onDismiss={() => setError(undefined)} />
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
