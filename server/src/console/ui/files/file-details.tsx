import { useEffect, useState } from 'preact/hooks'
import type { AccessPolicy, File as StoredFile, Passage } from 'botshelf/client'
import { useSession } from '../core/session-context.js'
import { errorMessage } from '../core/error-message.js'
import { formatBytes, formatTime, toLocalInput } from '../core/format.js'
import { routeHref } from '../core/route.js'
import { ErrorBanner } from '../components/error-banner.js'
import { ConfirmDialog } from '../components/confirm-dialog.js'
import { FilePreview } from './file-preview.js'
import { TagEditor } from './tag-editor.js'
import { metadataPatch } from './metadata-patch.js'
import { indexText } from './index-text.js'

const policies: Array<{ policy: AccessPolicy; label: string }> = [
  { policy: 'public_content', label: 'Public content (anyone with the permanent URL may download it)' },
  { policy: 'integrations', label: 'Integrations (every integration of the bot may read it)' },
]

/**
 * One file: its status (with the indexing failure reason), preview and download, tags, metadata, access
 * policies and expiry, copy, delete (with confirmation) and passages. Controls the token may not use are not
 * shown; the service refuses them anyway.
 *
 * @example
 * ```tsx
 * <FileDetails fileId="file_01..." />
 * ```
 */
export function FileDetails({ fileId }: { fileId: string }) {
  const { api, can } = useSession()
  const [file, setFile] = useState<StoredFile | undefined>()
  const [error, setError] = useState<unknown>()
  const [notice, setNotice] = useState<string | undefined>()
  const [confirming, setConfirming] = useState(false)

  const load = () =>
    api.client
      .getFile({ id: fileId })
      .then(({ file: loaded }) => setFile(loaded))
      .catch(setError)
  useEffect(() => {
    void load()
  }, [fileId])

  const act = async (what: string, call: () => Promise<unknown>) => {
    setError(undefined)
    setNotice(undefined)
    try {
      await call()
      setNotice(what)
      await load()
    } catch (reason) {
      setError(reason)
    }
  }

  if (!file)
    return (
      <section>
        <p>
          <a href={routeHref({ page: 'files' })}>← Files</a>
        </p>
        {error ? <ErrorBanner error={error} /> : <p role="status">Loading…</p>}
      </section>
    )

  return (
    <section aria-labelledby="file-title" class="details">
      <p>
        <a href={routeHref({ page: 'files' })}>← Files</a>
      </p>
      <h1 id="file-title">{file.key}</h1>
      <ErrorBanner error={error} onDismiss={() => setError(undefined)} />
      {notice && (
        <p class="banner banner-ok" role="status">
          {notice}
        </p>
      )}
      <div class="columns">
        <div>
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <span class={`status status-${file.status}`}>{file.status.replace(/_/g, ' ')}</span>
              {file.failedStatusReason && <span class="failure"> — {file.failedStatusReason}</span>}
            </dd>
            <dt>Size</dt>
            <dd>{formatBytes(file.size)}</dd>
            <dt>Type</dt>
            <dd>{file.contentType}</dd>
            <dt>Search index</dt>
            <dd>{indexText(file)}</dd>
            <dt>Owner</dt>
            <dd>
              {file.owner.type}
              {file.owner.name ? ` ${file.owner.name}` : ''}
            </dd>
            <dt>Created</dt>
            <dd>{formatTime(file.createdAt)}</dd>
            <dt>Updated</dt>
            <dd>{formatTime(file.updatedAt)}</dd>
            <dt>Expires</dt>
            <dd>{file.expiresAt ? formatTime(file.expiresAt) : 'never'}</dd>
            <dt>Id</dt>
            <dd>
              <code>{file.id}</code>
            </dd>
          </dl>
          <p>
            <a class="button" href={file.url} download={file.key.split('/').pop()}>
              Download
            </a>
          </p>
        </div>
        <div class="preview">
          <h2>Preview</h2>
          <FilePreview file={file} />
        </div>
      </div>

      <h2>Tags</h2>
      <TagEditor key={file.updatedAt} tags={file.tags} disabled={!can.writeFiles} onSave={(tags) => act('Tags saved.', () => api.client.updateFileMetadata({ id: file.id, tags }))} />

      <MetadataEditor key={`m${file.updatedAt}`} file={file} disabled={!can.writeFiles} onSave={(metadata) => act('Metadata saved.', () => api.client.updateFileMetadata({ id: file.id, metadata }))} />

      <AccessEditor
        key={`a${file.updatedAt}`}
        file={file}
        disabled={!can.writeFiles}
        onSave={(accessPolicies, expiresAt) => act('Access and expiry saved.', () => api.client.updateFileMetadata({ id: file.id, accessPolicies, expiresAt }))}
      />

      {can.writeFiles && <CopyForm file={file} onCopy={(destinationKey) => act(`Copied to ${destinationKey}.`, () => api.client.copyFile({ idOrKey: file.id, destinationKey }))} />}

      <Passages file={file} />

      {can.deleteFiles && (
        <section aria-labelledby="danger-title" class="danger-zone">
          <h2 id="danger-title">Delete</h2>
          <button type="button" class="danger" onClick={() => setConfirming(true)}>
            Delete this file
          </button>
          <ConfirmDialog
            open={confirming}
            title={`Delete ${file.key}?`}
            confirmLabel="Delete"
            onCancel={() => setConfirming(false)}
            onConfirm={() => {
              setConfirming(false)
              api.client
                .deleteFile({ id: file.id })
                .then(() => (location.hash = routeHref({ page: 'files' })))
                .catch(setError)
            }}
          >
            <p>The file and its content are removed for good.</p>
          </ConfirmDialog>
        </section>
      )}
    </section>
  )
}

function MetadataEditor({ file, disabled, onSave }: { file: StoredFile; disabled: boolean; onSave: (patch: Record<string, unknown>) => void }) {
  const [text, setText] = useState(() => JSON.stringify(file.metadata, null, 2))
  const [problem, setProblem] = useState<string | undefined>()
  const save = (event: Event) => {
    event.preventDefault()
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      return setProblem(`metadata: not valid JSON (${errorMessage(error)})`)
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return setProblem('metadata: expected a JSON object')
    setProblem(undefined)
    onSave(metadataPatch(file.metadata, parsed as Record<string, unknown>))
  }
  return (
    <form onSubmit={save} aria-labelledby="metadata-title">
      <h2 id="metadata-title">Metadata</h2>
      <label for="metadata" class="visually-hidden">
        Metadata (JSON object)
      </label>
      <textarea id="metadata" rows={5} value={text} disabled={disabled} onInput={(e) => setText(e.currentTarget.value)} spellcheck={false} />
      {problem && <p role="alert">{problem}</p>}
      {!disabled && (
        <button type="submit" class="primary">
          Save metadata
        </button>
      )}
    </form>
  )
}

function AccessEditor(props: { file: StoredFile; disabled: boolean; onSave: (policies: AccessPolicy[], expiresAt: string | null) => void }) {
  const [chosen, setChosen] = useState<AccessPolicy[]>(props.file.accessPolicies)
  const [expiry, setExpiry] = useState(toLocalInput(props.file.expiresAt))
  return (
    <form
      aria-labelledby="access-title"
      onSubmit={(event) => {
        event.preventDefault()
        props.onSave(chosen, expiry ? new Date(expiry).toISOString() : null)
      }}
    >
      <h2 id="access-title">Access and expiry</h2>
      <fieldset disabled={props.disabled}>
        <legend>Access policies</legend>
        {policies.map(({ policy, label }) => (
          <label key={policy} class="check">
            <input
              type="checkbox"
              checked={chosen.includes(policy)}
              onChange={(e) => setChosen(e.currentTarget.checked ? [...chosen, policy] : chosen.filter((p) => p !== policy))}
            />
            {label}
          </label>
        ))}
        <label for="expires-at">Expires at (empty: never)</label>
        <input id="expires-at" type="datetime-local" value={expiry} onInput={(e) => setExpiry(e.currentTarget.value)} />
      </fieldset>
      {!props.disabled && (
        <button type="submit" class="primary">
          Save access and expiry
        </button>
      )}
    </form>
  )
}

function CopyForm({ file, onCopy }: { file: StoredFile; onCopy: (key: string) => void }) {
  const [key, setKey] = useState(`${file.key}.copy`)
  return (
    <form
      aria-labelledby="copy-title"
      class="inline"
      onSubmit={(event) => {
        event.preventDefault()
        onCopy(key)
      }}
    >
      <h2 id="copy-title">Copy</h2>
      <label for="copy-key">New key</label>
      <input id="copy-key" value={key} onInput={(e) => setKey(e.currentTarget.value)} required />
      <button type="submit">Copy</button>
    </form>
  )
}

function Passages({ file }: { file: StoredFile }) {
  const { api } = useSession()
  const [passages, setPassages] = useState<Passage[] | undefined>()
  const [error, setError] = useState<unknown>()
  useEffect(() => {
    api.client
      .listFilePassages({ id: file.id })
      .then((result) => setPassages(result.passages))
      .catch(setError)
  }, [file.id])
  return (
    <section aria-labelledby="passages-title">
      <h2 id="passages-title">Passages</h2>
      {error ? (
        <p class="muted">{errorMessage(error)}</p>
      ) : passages === undefined ? (
        <p role="status">Loading…</p>
      ) : passages.length === 0 ? (
        <p class="muted">No passages: the file is not indexed.</p>
      ) : (
        <ol class="passages">
          {passages.map((passage, index) => (
            <li key={index}>
              <pre>{passage.content}</pre>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
