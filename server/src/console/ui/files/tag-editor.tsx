import { useState } from 'preact/hooks'

/**
 * A file's tags as editable rows; saving sends only what changed (a removed tag as `null`, as updateFileMetadata
 * takes a patch).
 *
 * @example
 * ```tsx
 * <TagEditor tags={file.tags} disabled={!can.writeFiles} onSave={(patch) => api.client.updateFileMetadata({ id, tags: patch })} />
 * ```
 */
export function TagEditor({ tags, disabled, onSave }: { tags: Record<string, string>; disabled: boolean; onSave: (patch: Record<string, string | null>) => Promise<void> }) {
  const [rows, setRows] = useState(() => Object.entries(tags).map(([key, value]) => ({ key, value })))
  const [busy, setBusy] = useState(false)
  const save = async (event: Event) => {
    event.preventDefault()
    const patch: Record<string, string | null> = {}
    const kept = new Set<string>()
    for (const row of rows) {
      const key = row.key.trim()
      if (!key) continue
      kept.add(key)
      if (tags[key] !== row.value) patch[key] = row.value
    }
    for (const key of Object.keys(tags)) if (!kept.has(key)) patch[key] = null
    setBusy(true)
    try {
      await onSave(patch)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={save} aria-label="Tags">
      {rows.length === 0 && <p class="muted">none</p>}
      {rows.length > 0 && (
        <table class="kv">
          <thead>
            <tr>
              <th scope="col">Tag</th>
              <th scope="col">Value</th>
              <th scope="col">
                <span class="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={index}>
                <td>
                  <input aria-label={`Tag ${index + 1} name`} value={row.key} disabled={disabled} onInput={(e) => setRows(rows.map((r, i) => (i === index ? { ...r, key: e.currentTarget.value } : r)))} />
                </td>
                <td>
                  <input aria-label={`Tag ${row.key || index + 1} value`} value={row.value} disabled={disabled} onInput={(e) => setRows(rows.map((r, i) => (i === index ? { ...r, value: e.currentTarget.value } : r)))} />
                </td>
                <td>
                  {!disabled && (
                    <button type="button" class="link" aria-label={`Remove tag ${row.key}`} onClick={() => setRows(rows.filter((_, i) => i !== index))}>
                      ✕
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!disabled && (
        <div class="actions">
          <button type="button" onClick={() => setRows([...rows, { key: '', value: '' }])}>
            Add a tag
          </button>
          <button type="submit" class="primary" disabled={busy}>
            Save tags
          </button>
        </div>
      )}
    </form>
  )
}
