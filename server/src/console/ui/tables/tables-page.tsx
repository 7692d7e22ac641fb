import { useEffect, useState } from 'preact/hooks'
import type { Table } from 'botshelf/client'
import { useSession } from '../core/session-context.js'
import { formatTime } from '../core/format.js'
import { routeHref } from '../core/route.js'
import { ErrorBanner } from '../components/error-banner.js'
import { EmptyState } from '../components/empty-state.js'
import { TableView } from './table-view.js'
import { columnTypeChoices, columnDefinition, type ColumnTypeChoice } from './column-types.js'

/**
 * The Tables page: the list of the bot's tables with a form to create one, or one table.
 *
 * @example
 * ```tsx
 * <TablesPage table={route.table} />
 * ```
 */
export function TablesPage({ table }: { table?: string | undefined }) {
  if (table) return <TableView name={table} />
  return <TableList />
}

function TableList() {
  const { api, can } = useSession()
  const [tables, setTables] = useState<Table[] | undefined>()
  const [error, setError] = useState<unknown>()
  useEffect(() => {
    api.client
      .listTables({})
      .then((result) => setTables(result.tables))
      .catch(setError)
  }, [])
  return (
    <section aria-labelledby="tables-title">
      <h1 id="tables-title">Tables</h1>
      <ErrorBanner error={error} />
      {tables && tables.length === 0 ? (
        <EmptyState title="No tables yet.">{can.writeTables ? 'Create one below.' : 'Tables the bot creates show up here.'}</EmptyState>
      ) : (
        <table class="grid">
          <caption class="visually-hidden">Tables of this bot</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Columns</th>
              <th scope="col">Key column</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {tables?.map((table) => (
              <tr key={table.id}>
                <td>
                  <a href={routeHref({ page: 'tables', table: table.name })}>{table.name}</a>
                  {table.frozen ? ' (frozen)' : ''}
                </td>
                <td>{Object.keys(table.schema.properties).join(', ') || '—'}</td>
                <td>{table.keyColumn ?? '—'}</td>
                <td>{formatTime(table.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {can.writeTables && <CreateTableForm />}
    </section>
  )
}

function CreateTableForm() {
  const { api } = useSession()
  const [name, setName] = useState('')
  const [columns, setColumns] = useState<Array<{ name: string; type: ColumnTypeChoice }>>([{ name: '', type: 'string' }])
  const [error, setError] = useState<unknown>()
  const create = async (event: Event) => {
    event.preventDefault()
    setError(undefined)
    const properties = Object.fromEntries(columns.filter((c) => c.name.trim()).map((c) => [c.name.trim(), columnDefinition(c.type)]))
    try {
      const { table } = await api.client.createTable({ name: name.trim(), schema: { type: 'object', properties } })
      location.hash = routeHref({ page: 'tables', table: table.name })
    } catch (reason) {
      setError(reason)
    }
  }
  return (
    <form onSubmit={create} aria-labelledby="create-table-title" class="card">
      <h2 id="create-table-title">Create a table</h2>
      <ErrorBanner error={error} />
      <label for="table-name">Name (ends with "Table", e.g. ordersTable)</label>
      <input id="table-name" value={name} required onInput={(e) => setName(e.currentTarget.value)} />
      <fieldset>
        <legend>Columns</legend>
        {columns.map((column, index) => (
          <div class="inline" key={index}>
            <label>
              Column {index + 1} name{' '}
              <input value={column.name} onInput={(e) => setColumns(columns.map((c, i) => (i === index ? { ...c, name: e.currentTarget.value } : c)))} />
            </label>
            <label>
              type{' '}
              <select value={column.type} onChange={(e) => setColumns(columns.map((c, i) => (i === index ? { ...c, type: e.currentTarget.value as ColumnTypeChoice } : c)))}>
                {columnTypeChoices.map((type) => (
                  <option key={type}>{type}</option>
                ))}
              </select>
            </label>
          </div>
        ))}
        <button type="button" onClick={() => setColumns([...columns, { name: '', type: 'string' }])}>
          Add a column
        </button>
      </fieldset>
      <button type="submit" class="primary">
        Create table
      </button>
    </form>
  )
}
