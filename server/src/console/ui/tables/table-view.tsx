import { useEffect, useState } from 'preact/hooks'
import type { Table } from 'botshelf/client'
import { useSession } from '../core/session-context.js'
import { routeHref } from '../core/route.js'
import { ErrorBanner } from '../components/error-banner.js'
import { SchemaEditor } from './schema-editor.js'
import { RowsGrid } from './rows-grid.js'
import { TransferPanel } from './transfer-panel.js'

/**
 * One table: its schema, its rows, and import/export.
 *
 * @example
 * ```tsx
 * <TableView name="ordersTable" />
 * ```
 */
export function TableView({ name }: { name: string }) {
  const { api } = useSession()
  const [table, setTable] = useState<Table | undefined>()
  const [rowCount, setRowCount] = useState<number | undefined>()
  const [error, setError] = useState<unknown>()
  const [version, setVersion] = useState(0)
  useEffect(() => {
    api.client
      .getTable({ table: name })
      .then((result) => {
        setTable(result.table)
        setRowCount(result.rows)
      })
      .catch(setError)
  }, [name, version])
  return (
    <section aria-labelledby="table-title" class="details">
      <p>
        <a href={routeHref({ page: 'tables' })}>← Tables</a>
      </p>
      <h1 id="table-title">
        {name} {rowCount !== undefined && <span class="muted">({rowCount} rows)</span>}
      </h1>
      <ErrorBanner error={error} />
      {table && (
        <>
          <SchemaEditor table={table} onChanged={setTable} />
          <RowsGrid
            table={table}
            version={version}
            onRowsChanged={() =>
              api.client
                .getTable({ table: name })
                .then((result) => setRowCount(result.rows))
                .catch(setError)
            }
          />
          <TransferPanel table={table} onImported={() => setVersion((v) => v + 1)} />
        </>
      )}
    </section>
  )
}
