import { useState } from 'preact/hooks'
import { describeTypes, parseTypes, type WebhookTypes } from './event-types.js'

/** What the subscription form edits. */
export interface WebhookDraft {
  url: string
  types: WebhookTypes
  description: string
  disabled: boolean
}

/**
 * The add/edit form of a subscription: URL, event types (comma-separated, empty = every type), description and,
 * when editing, disabled. Read-only (every field disabled, no submit) for a token that may not manage webhooks.
 *
 * @example
 * ```tsx
 * <WebhookForm title="Add a subscription" submitLabel="Add subscription" onSubmit={create} />
 * ```
 */
export function WebhookForm(props: {
  title: string
  submitLabel: string
  initial?: Partial<WebhookDraft>
  editing?: boolean
  readOnly?: boolean
  onSubmit: (draft: WebhookDraft) => Promise<void>
}) {
  const [url, setUrl] = useState(props.initial?.url ?? '')
  const [types, setTypes] = useState(props.initial?.types?.length ? describeTypes(props.initial.types) : '')
  const [description, setDescription] = useState(props.initial?.description ?? '')
  const [disabled, setDisabled] = useState(props.initial?.disabled ?? false)
  const [busy, setBusy] = useState(false)
  const titleId = `${props.submitLabel.replace(/\W+/g, '-').toLowerCase()}-title`
  return (
    <form
      class="card"
      aria-labelledby={titleId}
      onSubmit={(event) => {
        event.preventDefault()
        setBusy(true)
        props
          .onSubmit({ url: url.trim(), types: parseTypes(types), description: description.trim(), disabled })
          .then(
            () => {
              if (!props.editing) (setUrl(''), setTypes(''), setDescription(''))
            },
            // The page's error banner shows the refusal; the fields keep what was typed.
            () => undefined,
          )
          .finally(() => setBusy(false))
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      <fieldset disabled={props.readOnly} class="fields">
        <label>
          URL
          <input name="url" type="url" required value={url} placeholder="https://bot.example.com/events" onInput={(e) => setUrl(e.currentTarget.value)} />
        </label>
        <label>
          Event types
          <input name="types" value={types} placeholder="every type (or file.created, table.rows.created, …)" onInput={(e) => setTypes(e.currentTarget.value)} />
        </label>
        <label>
          Description
          <input name="description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </label>
        {props.editing && (
          <label class="check">
            <input type="checkbox" checked={disabled} onChange={(e) => setDisabled(e.currentTarget.checked)} /> Disabled (no deliveries)
          </label>
        )}
      </fieldset>
      {!props.readOnly && (
        <button type="submit" class="primary" disabled={busy}>
          {props.submitLabel}
        </button>
      )}
    </form>
  )
}
