import { useRef, useState } from 'preact/hooks'
import { useSession } from '../core/session-context.js'
import { errorMessage } from '../core/error-message.js'
import { formatBytes } from '../core/format.js'
import { ProgressBar } from '../components/progress-bar.js'
import { uploadBrowserFile } from './upload-content.js'

interface UploadTask {
  id: number
  key: string
  size: number
  loaded: number
  state: 'uploading' | 'done' | 'failed'
  error?: string
}

let nextTask = 1

/**
 * Upload by drag and drop (or the file picker, for the keyboard): each file gets a progress bar; a key prefix
 * may be given (`docs/` → `docs/report.pdf`), and "Index for search" uploads with `index: true` so the Search page
 * finds the documents once indexed. `onUploaded` runs after each success so the list refreshes.
 *
 * @example
 * ```tsx
 * <UploadZone onUploaded={reload} />
 * ```
 */
export function UploadZone({ onUploaded }: { onUploaded: () => void }) {
  const { api } = useSession()
  const [tasks, setTasks] = useState<UploadTask[]>([])
  const [prefix, setPrefix] = useState('')
  const [index, setIndex] = useState(false)
  const [dragging, setDragging] = useState(false)
  const input = useRef<HTMLInputElement>(null)

  const update = (id: number, patch: Partial<UploadTask>) => setTasks((all) => all.map((task) => (task.id === id ? { ...task, ...patch } : task)))

  const start = (files: FileList | null) => {
    if (!files) return
    for (const file of Array.from(files)) {
      const task: UploadTask = { id: nextTask++, key: `${prefix}${file.name}`, size: file.size, loaded: 0, state: 'uploading' }
      setTasks((all) => [task, ...all].slice(0, 20))
      uploadBrowserFile(api.client, file, { key: task.key, index, onProgress: (p) => update(task.id, { loaded: p.loaded }) })
        .then(() => {
          update(task.id, { state: 'done', loaded: task.size })
          onUploaded()
        })
        .catch((error: unknown) => update(task.id, { state: 'failed', error: errorMessage(error) }))
    }
  }

  return (
    <section class="upload" aria-label="Upload files">
      <div
        class={`dropzone${dragging ? ' dragging' : ''}`}
        onDragOver={(event) => {
          event.preventDefault()
          setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault()
          setDragging(false)
          start(event.dataTransfer?.files ?? null)
        }}
      >
        <p>
          Drop files here, or{' '}
          <button type="button" class="link" onClick={() => input.current?.click()}>
            choose files
          </button>
          .
        </p>
        <label class="inline">
          Key prefix <input value={prefix} placeholder="docs/" onInput={(e) => setPrefix(e.currentTarget.value)} />
        </label>
        <label class="check">
          <input type="checkbox" checked={index} onChange={(e) => setIndex(e.currentTarget.checked)} />
          Index for search
        </label>
        <input ref={input} type="file" multiple hidden aria-label="Files to upload" data-testid="file-input" onChange={(e) => start(e.currentTarget.files)} />
      </div>
      {tasks.length > 0 && (
        <ul class="uploads" aria-live="polite">
          {tasks.map((task) => (
            <li key={task.id} class={`upload-${task.state}`}>
              <ProgressBar label={`${task.key} (${formatBytes(task.size)})`} value={task.size === 0 ? (task.state === 'done' ? 1 : 0) : task.loaded / task.size} />
              <span class="upload-state">{task.state === 'failed' ? task.error : task.state === 'done' ? 'uploaded' : 'uploading'}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
