import { useEffect, useRef, useState } from 'preact/hooks'
import type { TableJob, Table } from 'botshelf/client'
import { useSession } from '../core/session-context.js'
import { formatTime } from '../core/format.js'
import { ErrorBanner } from '../components/error-banner.js'
import { ProgressBar } from '../components/progress-bar.js'
import { uploadBrowserFile } from '../files/upload-content.js'
import { watchTableJob } from './job-watch.js'

/**
 * Import and export of a table, each a background job whose progress is followed: export writes a file (CSV or
 * JSON, gzipped or not) offered for download; import uploads a CSV or JSON file, then loads it. The table's recent
 * jobs are listed with their errors.
 *
 * @example
 * ```tsx
 * <TransferPanel table={table} onImported={reloadRows} />
 * ```
 */
export function TransferPanel({ table, onImported }: { table: Table; onImported: () => void }) {
  const { api, can } = useSession()
  const [format, setFormat] = useState<'csv' | 'json'>('csv')
  const [compress, setCompress] = useState(false)
  const [job, setJob] = useState<TableJob | undefined>()
  const [download, setDownload] = useState<{ url: string; key: string } | undefined>()
  const [jobs, setJobs] = useState<TableJob[]>([])
  const [error, setError] = useState<unknown>()
  const [uploading, setUploading] = useState<number | undefined>()
  const fileInput = useRef<HTMLInputElement>(null)
  const stop = useRef(new AbortController())

  const refreshJobs = () =>
    api.client
      .getTableJobs({ table: table.name })
      .then((result) => setJobs(result.jobs))
      .catch(setError)
  useEffect(() => {
    void refreshJobs()
    const controller = stop.current
    return () => controller.abort()
  }, [table.name])

  const follow = async (started: TableJob) => {
    setJob(started)
    const done = await watchTableJob(api.client, table.name, started.id, setJob, stop.current.signal)
    void refreshJobs()
    return done
  }

  const exportTable = async () => {
    setError(undefined)
    setDownload(undefined)
    try {
      const { job: started } = await api.client.exportTable({ table: table.name, format, compress })
      const done = await follow(started)
      if (done?.status === 'completed' && done.outputFileId) {
        const { file } = await api.client.getFile({ id: done.outputFileId })
        setDownload({ url: file.url, key: file.key })
      }
    } catch (reason) {
      setError(reason)
    }
  }

  const importFile = async (file: globalThis.File | undefined) => {
    if (!file) return
    setError(undefined)
    try {
      setUploading(0)
      const stored = await uploadBrowserFile(api.client, file, {
        key: `imports/${table.name}/${Date.now()}-${file.name}`,
        onProgress: (p) => setUploading(p.total ? p.loaded / p.total : 0),
      })
      setUploading(undefined)
      const { job: started } = await api.client.importTable({ table: table.name, fileId: stored.id })
      const done = await follow(started)
      if (done?.status === 'completed') onImported()
    } catch (reason) {
      setUploading(undefined)
      setError(reason)
    }
  }

  return (
    <section aria-labelledby="transfer-title">
      <h2 id="transfer-title">Import and export</h2>
      <ErrorBanner error={error} onDismiss={() => setError(undefined)} />
      {can.writeTables && (
        <div class="inline">
          <label>
            Format{' '}
            <select value={format} onChange={(e) => setFormat(e.currentTarget.value as 'csv' | 'json')}>
              <option value="csv">CSV</option>
              <option value="json">JSON</option>
            </select>
          </label>
          <label class="check">
            <input type="checkbox" checked={compress} onChange={(e) => setCompress(e.currentTarget.checked)} /> gzip
          </label>
          <button type="button" onClick={() => void exportTable()}>
            Export
          </button>
          <button type="button" onClick={() => fileInput.current?.click()}>
            Import a CSV or JSON file…
          </button>
          <input ref={fileInput} type="file" hidden accept=".csv,.json,.gz,text/csv,application/json" aria-label="File to import" data-testid="import-input" onChange={(e) => void importFile(e.currentTarget.files?.[0])} />
        </div>
      )}
      {uploading !== undefined && <ProgressBar label="Uploading the import file" value={uploading} />}
      {job && (
        <div class="job" data-testid="job-status">
          <ProgressBar label={`${job.type} ${job.status.replace('_', ' ')}`} value={job.status === 'completed' ? 1 : job.progress} />
          {job.error && <p role="alert">{job.error}</p>}
        </div>
      )}
      {download && (
        <p>
          <a class="button" href={download.url} download={download.key.split('/').pop()} data-testid="export-download">
            Download {download.key}
          </a>
        </p>
      )}
      {jobs.length > 0 && (
        <table class="grid compact">
          <caption>Recent jobs</caption>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Progress</th>
              <th scope="col">Updated</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((j) => (
              <tr key={j.id}>
                <td>{j.type}</td>
                <td>{j.status}</td>
                <td>{j.progress === undefined ? '—' : `${Math.round(j.progress * 100)}%`}</td>
                <td>{formatTime(j.updatedAt)}</td>
                <td>{j.error ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
