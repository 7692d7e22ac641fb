import { useEffect, useState } from 'preact/hooks'
import type { Row, RowFilter, Table } from 'botshelf/client'
import { useSession } from '../core/session-context.js'
import { ErrorBanner } from '../components/error-banner.js'
import { EmptyState } from '../components/empty-state.js'
import { ConfirmDialog } from '../components/confirm-dialog.js'
import { cellText, columnKinds, columnNames, parseCell } from './column-kinds.js'
import { FilterBuilder } from './filter-builder.js'
import { cellStatus, recomputeUpdate } from './computed-cells.js'

const PAGE = 25

/**
 * The rows of a table: offset paging, sorting by a column header, the filter builder, inline editing (Enter
 * saves, Escape cancels), a form to insert a row, and delete with confirmation. Computed cells show their status
 * (`pending`, `failed` with the reason as a tip) until computed; a row's Recompute button writes back the columns its
 * computed columns read, which makes them due again. `version` reloads it.
 *
 * @example
 * ```tsx
 * <RowsGrid table={table} version={reloads} onRowsChanged={refreshCount} />
 * ```
 */
export function RowsGrid({ table, version, onRowsChanged }: { table: Table; version: number; onRowsChanged?: () => void }) {
  const { api, can } = useSession()
  const names = columnNames(table)
  const kinds = columnKinds(table)
  const [rows, setRows] = useState<Row[] | undefined>()
  const [hasMore, setHasMore] = useState(false)
  const [offset, setOffset] = useState(0)
  const [order, setOrder] = useState<{ by: string; direction: 'asc' | 'desc' }>({ by: 'id', direction: 'asc' })
  const [filter, setFilter] = useState<Record<string, unknown> | undefined>()
  const [error, setError] = useState<unknown>()
  const [editing, setEditing] = useState<{ id: number; column: string; text: string } | undefined>()
  const [deleting, setDeleting] = useState<number | undefined>()
  const [reloads, setReloads] = useState(0)
  const [filterBroken, setFilterBroken] = useState(false)
  const writable = can.writeTables

  useEffect(() => {
    api.client
      .findTableRows({ table: table.name, limit: PAGE, offset, orderBy: order.by, orderDirection: order.direction, ...(filter ? { filter: filter as RowFilter } : {}) })
      .then((result) => {
        setRows(result.rows)
        setHasMore(result.hasMore)
        setError(undefined)
        setFilterBroken(false)
      })
      .catch((reason: unknown) => {
        // Rows found before (another filter, another page) would read as this query's answer: hide them.
        setRows(undefined)
        setHasMore(false)
        setFilterBroken(filter !== undefined)
        setError(reason)
      })
  }, [table, offset, order, filter, reloads, version])

  const reload = () => setReloads((n) => n + 1)
  const written = () => {
    reload()
    onRowsChanged?.()
  }
  const save = async () => {
    if (!editing) return
    const parsed = parseCell(editing.text, kinds[editing.column] ?? 'string')
    if (!parsed.ok) return setError(new Error(`${editing.column}: ${parsed.error}`))
    try {
      await api.client.updateTableRows({ table: table.name, rows: [{ id: editing.id, [editing.column]: parsed.value }] })
      setEditing(undefined)
      reload()
    } catch (reason) {
      setError(reason)
    }
  }
  const sort = (by: string) => {
    setOffset(0)
    setOrder({ by, direction: order.by === by && order.direction === 'asc' ? 'desc' : 'asc' })
  }
  const shown = ['id', ...names]

  return (
    <section aria-labelledby="rows-title">
      <h2 id="rows-title">Rows</h2>
      <FilterBuilder
        kinds={kinds}
        onApply={(next) => {
          setOffset(0)
          setFilter(next)
          setReloads((n) => n + 1)
        }}
        onProblem={() => {
          setRows(undefined)
          setHasMore(false)
          setFilterBroken(true)
        }}
      />
      <ErrorBanner error={error} onDismiss={() => setError(undefined)} />
      {filterBroken && !rows ? (
        <p class="muted" role="status" data-testid="rows-hidden">
          No rows shown: fix the filter and apply it again.
        </p>
      ) : rows && rows.length === 0 ? (
        <EmptyState title={filter ? 'No row matches the filter.' : 'No rows yet.'}>{writable && !filter ? 'Add one below.' : undefined}</EmptyState>
      ) : (
        <div class="scroll">
          <table class="grid rows" data-testid="rows-grid">
            <caption class="visually-hidden">Rows of {table.name}</caption>
            <thead>
              <tr>
                {shown.map((column) => (
                  <th key={column} scope="col" aria-sort={order.by === column ? (order.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
                    <button type="button" class="sort" onClick={() => sort(column)}>
                      {column}
                      {order.by === column ? (order.direction === 'asc' ? ' ▲' : ' ▼') : ''}
                    </button>
                  </th>
                ))}
                {writable && (
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {rows?.map((row) => (
                <tr key={row.id}>
                  {shown.map((column) => {
                    const isEditing = editing?.id === row.id && editing.column === column
                    if (isEditing)
                      return (
                        <td key={column}>
                          <input
                            aria-label={`${column} of row ${row.id}`}
                            value={editing.text}
                            autofocus
                            onInput={(e) => setEditing({ ...editing, text: e.currentTarget.value })}
                            onKeyDown={(e) => {
                              if (e.key === 'Enter') void save()
                              if (e.key === 'Escape') setEditing(undefined)
                            }}
                          />
                        </td>
                      )
                    const text = cellText(row[column])
                    const status = cellStatus(row, column)
                    return (
                      <td key={column}>
                        {status && (
                          <span class={`cell-status ${status.label}`} title={status.title}>
                            {status.label}{' '}
                          </span>
                        )}
                        {writable && column !== 'id' ? (
                          <button type="button" class="cell" aria-label={`Edit ${column} of row ${row.id}: ${text || 'empty'}`} onClick={() => setEditing({ id: row.id, column, text })}>
                            {text || '\u00a0'}
                          </button>
                        ) : (
                          text
                        )}
                      </td>
                    )
                  })}
                  {writable && (
                    <td>
                      {recomputeUpdate(table, row) && (
                        <button
                          type="button"
                          class="link"
                          aria-label={`Recompute row ${row.id}`}
                          onClick={() => {
                            api.client
                              .updateTableRows({ table: table.name, rows: [recomputeUpdate(table, row)!] })
                              .then(reload)
                              .catch(setError)
                          }}
                        >
                          Recompute
                        </button>
                      )}{' '}
                      <button type="button" class="link danger-text" aria-label={`Delete row ${row.id}`} onClick={() => setDeleting(row.id)}>
                        Delete
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="pager">
        <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
          Previous
        </button>
        <span>
          Rows {rows && rows.length > 0 ? `${offset + 1}–${offset + rows.length}` : '0'}
        </span>
        <button type="button" disabled={!hasMore} onClick={() => setOffset(offset + PAGE)}>
          Next
        </button>
      </div>
      {writable && <NewRowForm table={table} names={names} onAdded={written} onError={setError} />}
      <ConfirmDialog
        open={deleting !== undefined}
        title={`Delete row ${deleting}?`}
        confirmLabel="Delete row"
        onCancel={() => setDeleting(undefined)}
        onConfirm={() => {
          const id = deleting!
          setDeleting(undefined)
          api.client
            .deleteTableRows({ table: table.name, ids: [id] })
            .then(written)
            .catch(setError)
        }}
      />
    </section>
  )
}

function NewRowForm({ table, names, onAdded, onError }: { table: Table; names: string[]; onAdded: () => void; onError: (error: unknown) => void }) {
  const { api } = useSession()
  const kinds = columnKinds(table)
  const [values, setValues] = useState<Record<string, string>>({})
  const add = async (event: Event) => {
    event.preventDefault()
    const row: Record<string, unknown> = {}
    for (const name of names) {
      const parsed = parseCell(values[name] ?? '', kinds[name] ?? 'string')
      if (!parsed.ok) return onError(new Error(`${name}: ${parsed.error}`))
      if (parsed.value !== null) row[name] = parsed.value
    }
    try {
      await api.client.createTableRows({ table: table.name, rows: [row] })
      setValues({})
      onAdded()
    } catch (reason) {
      onError(reason)
    }
  }
  return (
    <form class="card new-row" onSubmit={add} aria-labelledby="new-row-title">
      <h3 id="new-row-title">Add a row</h3>
      <div class="fields">
        {names.map((name) => (
          <label key={name}>
            {name} <span class="muted">({kinds[name]})</span>
            {kinds[name] === 'boolean' ? (
              <select name={name} value={values[name] ?? ''} onChange={(e) => setValues({ ...values, [name]: e.currentTarget.value })}>
                <option value="">empty (null)</option>
                <option value="true">true</option>
                <option value="false">false</option>
              </select>
            ) : (
              <input name={name} value={values[name] ?? ''} onInput={(e) => setValues({ ...values, [name]: e.currentTarget.value })} />
            )}
          </label>
        ))}
      </div>
      <button type="submit" class="primary">
        Add row
      </button>
    </form>
  )
}
