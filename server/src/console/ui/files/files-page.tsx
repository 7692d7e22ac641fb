import { useEffect, useState } from 'preact/hooks'
import type { File as StoredFile } from 'botshelf/client'
import { useSession } from '../core/session-context.js'
import { formatBytes, formatTime } from '../core/format.js'
import { routeHref } from '../core/route.js'
import { ErrorBanner } from '../components/error-banner.js'
import { EmptyState } from '../components/empty-state.js'
import { FileDetails } from './file-details.js'
import { UploadZone } from './upload-zone.js'
import { TagFilterEditor } from './tag-filter-editor.js'
import { loadFilePage, type FilePage, type FileQuery } from './file-query.js'

const PAGE_SIZE = 50
const columns: Array<{ field: FileQuery['sortField']; label: string }> = [
  { field: 'key', label: 'Key' },
  { field: 'size', label: 'Size' },
  { field: 'status', label: 'Status' },
  { field: 'updatedAt', label: 'Updated' },
]

/**
 * The Files page: the list (key search, tag filters, sorting, cursor paging) with uploads, or one file's details.
 *
 * @example
 * ```tsx
 * <FilesPage fileId={route.fileId} />
 * ```
 */
export function FilesPage({ fileId }: { fileId?: string | undefined }) {
  if (fileId) return <FileDetails fileId={fileId} />
  return <FileList />
}

function FileList() {
  const { api, can } = useSession()
  const [query, setQuery] = useState<FileQuery>({ sortField: 'updatedAt', sortDirection: 'desc', tags: {}, keySearch: '' })
  const [search, setSearch] = useState('')
  const [starts, setStarts] = useState<Array<string | undefined>>([undefined])
  const [page, setPage] = useState<FilePage | undefined>()
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<unknown>()
  const [reloads, setReloads] = useState(0)
  const start = starts[starts.length - 1]

  useEffect(() => {
    let current = true
    setLoading(true)
    loadFilePage(api.client, query, start, PAGE_SIZE)
      .then((loaded) => current && (setPage(loaded), setError(undefined)))
      .catch((reason: unknown) => current && setError(reason))
      .finally(() => current && setLoading(false))
    return () => {
      current = false
    }
  }, [query, start, reloads])

  const changeQuery = (next: FileQuery) => {
    setStarts([undefined])
    setQuery(next)
  }
  const sortBy = (field: FileQuery['sortField']) =>
    changeQuery({ ...query, sortField: field, sortDirection: query.sortField === field && query.sortDirection === 'asc' ? 'desc' : 'asc' })

  return (
    <section aria-labelledby="files-title">
      <h1 id="files-title">Files</h1>
      {can.writeFiles && <UploadZone onUploaded={() => setReloads((n) => n + 1)} />}
      <div class="toolbar">
        <form
          role="search"
          class="inline"
          onSubmit={(event) => {
            event.preventDefault()
            changeQuery({ ...query, keySearch: search })
          }}
        >
          <label for="key-search">Search by key</label>
          <input id="key-search" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} placeholder="part of a key" />
          <button type="submit">Search</button>
        </form>
        <TagFilterEditor tags={query.tags} onChange={(tags) => changeQuery({ ...query, tags })} />
      </div>
      <ErrorBanner error={error} />
      {page && page.files.length === 0 && !loading ? (
        <EmptyState title={query.keySearch || Object.keys(query.tags).length > 0 ? 'No file matches.' : 'No files yet.'}>
          {query.keySearch
            ? `Read ${page.scanned} files${page.nextToken ? '; more remain, use Next to keep looking' : ''}.`
            : can.writeFiles
              ? 'Drop a file above to upload it.'
              : 'Files the bot stores show up here.'}
        </EmptyState>
      ) : (
        <table class="grid" aria-busy={loading}>
          <caption class="visually-hidden">Files of this bot</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.field} scope="col" aria-sort={query.sortField === column.field ? (query.sortDirection === 'asc' ? 'ascending' : 'descending') : undefined}>
                  <button type="button" class="sort" onClick={() => sortBy(column.field)}>
                    {column.label}
                    {query.sortField === column.field ? (query.sortDirection === 'asc' ? ' ▲' : ' ▼') : ''}
                  </button>
                </th>
              ))}
              <th scope="col">Tags</th>
            </tr>
          </thead>
          <tbody>{page?.files.map((file) => <FileRow key={file.id} file={file} />)}</tbody>
        </table>
      )}
      <div class="pager">
        <button type="button" disabled={starts.length < 2 || loading} onClick={() => setStarts(starts.slice(0, -1))}>
          Previous
        </button>
        <span>Page {starts.length}</span>
        <button type="button" disabled={!page?.nextToken || loading} onClick={() => setStarts([...starts, page?.nextToken])}>
          Next
        </button>
      </div>
    </section>
  )
}

function FileRow({ file }: { file: StoredFile }) {
  return (
    <tr>
      <td>
        <a href={routeHref({ page: 'files', fileId: file.id })}>{file.key}</a>
      </td>
      <td>{formatBytes(file.size)}</td>
      <td>
        <span class={`status status-${file.status}`}>{file.status.replace(/_/g, ' ')}</span>
      </td>
      <td>{formatTime(file.updatedAt)}</td>
      <td class="tags">
        {Object.entries(file.tags).map(([key, value]) => (
          <span class="chip" key={key}>
            {key}: {value}
          </span>
        ))}
      </td>
    </tr>
  )
}
