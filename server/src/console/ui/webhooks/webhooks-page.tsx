import { useEffect, useState } from 'preact/hooks'
import type { Client } from 'botshelf/client'
import { useSession } from '../core/session-context.js'
import { routeHref } from '../core/route.js'
import { formatTime } from '../core/format.js'
import { ErrorBanner } from '../components/error-banner.js'
import { EmptyState } from '../components/empty-state.js'
import { ConfirmDialog } from '../components/confirm-dialog.js'
import { describeTypes } from './event-types.js'
import { SecretBanner } from './secret-banner.js'
import { WebhookForm, type WebhookDraft } from './webhook-form.js'
import { DeliveriesTable } from './deliveries-table.js'

/** A subscription as `GET /v1/webhooks` lists it (no secret). */
export type WebhookRow = Awaited<ReturnType<Client['listWebhooks']>>['webhooks'][number]

/**
 * Storage event subscriptions of the bot (docs/storage-events.md): the list (never the secrets), a form to add one
 * (its secret shown once), and for one subscription its settings, rotate secret (shown once), delete, and its
 * deliveries with Retry. Viewers see it all read-only.
 *
 * @example
 * ```tsx
 * <WebhooksPage webhookId={route.webhookId} />
 * ```
 */
export function WebhooksPage({ webhookId }: { webhookId?: string | undefined }) {
  const { api, can } = useSession()
  const [webhooks, setWebhooks] = useState<WebhookRow[] | undefined>()
  const [error, setError] = useState<unknown>()
  const [secret, setSecret] = useState<{ webhookId: string; secret: string } | undefined>()
  const [reloads, setReloads] = useState(0)

  useEffect(() => {
    listAll(api.client).then(setWebhooks).catch(setError)
  }, [reloads])

  const create = async (draft: WebhookDraft) => {
    try {
      const { webhook } = await api.client.createWebhook({
        url: draft.url,
        ...(draft.types.length > 0 ? { types: draft.types } : {}),
        ...(draft.description ? { description: draft.description } : {}),
      })
      setSecret({ webhookId: webhook.id, secret: webhook.secret })
      setReloads((n) => n + 1)
    } catch (reason) {
      setError(reason)
      throw reason
    }
  }
  const selected = webhookId ? webhooks?.find((w) => w.id === webhookId) : undefined

  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <ErrorBanner error={error} onDismiss={() => setError(undefined)} />
      {secret && <SecretBanner webhookId={secret.webhookId} secret={secret.secret} onDone={() => setSecret(undefined)} />}
      {!can.manageWebhooks && <p class="muted">Read-only: this token's role may list subscriptions and deliveries, not change them.</p>}
      {webhooks && webhooks.length === 0 ? (
        <EmptyState title="No subscriptions yet." />
      ) : (
        <table class="grid" data-testid="webhooks-table">
          <caption class="visually-hidden">Subscriptions</caption>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Types</th>
              <th scope="col">Description</th>
              <th scope="col">State</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {webhooks?.map((webhook) => (
              <tr key={webhook.id} aria-current={webhook.id === webhookId ? 'true' : undefined}>
                <td>
                  <a href={routeHref({ page: 'webhooks', webhookId: webhook.id })}>{webhook.url}</a>
                </td>
                <td>{describeTypes(webhook.types)}</td>
                <td>{webhook.description || '—'}</td>
                <td>{webhook.disabled ? 'disabled' : 'active'}</td>
                <td>{formatTime(webhook.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {selected ? (
        <WebhookDetails
          key={`${selected.id}:${selected.updatedAt}`}
          webhook={selected}
          onSecret={(value) => setSecret({ webhookId: selected.id, secret: value })}
          onChanged={() => setReloads((n) => n + 1)}
          onError={setError}
        />
      ) : webhookId && webhooks ? (
        <EmptyState title="No such subscription.">It may have been deleted.</EmptyState>
      ) : null}
      {can.manageWebhooks && <WebhookForm title="Add a subscription" submitLabel="Add subscription" onSubmit={create} />}
    </section>
  )
}

async function listAll(client: Client): Promise<WebhookRow[]> {
  const all: WebhookRow[] = []
  let nextToken: string | undefined
  do {
    const page = await client.listWebhooks(nextToken ? { nextToken } : {})
    all.push(...page.webhooks)
    nextToken = page.meta.nextToken
  } while (nextToken)
  return all
}

function WebhookDetails(props: { webhook: WebhookRow; onSecret: (secret: string) => void; onChanged: () => void; onError: (error: unknown) => void }) {
  const { api, can } = useSession()
  const { webhook } = props
  const [asking, setAsking] = useState<'delete' | 'rotate' | undefined>()
  const save = async (draft: WebhookDraft) => {
    try {
      await api.client.updateWebhook({ id: webhook.id, url: draft.url, types: draft.types, description: draft.description, disabled: draft.disabled })
      props.onChanged()
    } catch (reason) {
      props.onError(reason)
      throw reason
    }
  }
  return (
    <section aria-labelledby="webhook-title" data-testid="webhook-details">
      <h2 id="webhook-title">
        Subscription <code>{webhook.id}</code>
      </h2>
      <WebhookForm
        title="Settings"
        submitLabel="Save subscription"
        editing
        readOnly={!can.manageWebhooks}
        initial={{ url: webhook.url, types: webhook.types ?? [], description: webhook.description ?? '', disabled: webhook.disabled }}
        onSubmit={save}
      />
      {can.manageWebhooks && (
        <div class="actions">
          <button type="button" onClick={() => setAsking('rotate')}>
            Rotate secret
          </button>
          <button type="button" class="danger" onClick={() => setAsking('delete')}>
            Delete subscription
          </button>
        </div>
      )}
      <DeliveriesTable webhookId={webhook.id} onError={props.onError} />
      <ConfirmDialog
        open={asking !== undefined}
        title={asking === 'delete' ? `Delete the subscription to ${webhook.url}?` : `Rotate the secret of ${webhook.url}?`}
        confirmLabel={asking === 'delete' ? 'Delete' : 'Rotate'}
        onCancel={() => setAsking(undefined)}
        onConfirm={() => {
          const action = asking
          setAsking(undefined)
          if (action === 'delete') {
            api.client
              .deleteWebhook({ id: webhook.id })
              .then(() => ((location.hash = routeHref({ page: 'webhooks' })), props.onChanged()))
              .catch(props.onError)
          } else {
            api.client
              .rotateWebhookSecret({ id: webhook.id })
              .then(({ webhook: rotated }) => (props.onSecret(rotated.secret), props.onChanged()))
              .catch(props.onError)
          }
        }}
      >
        {asking === 'delete' ? (
          <p>No more events are sent to it; its deliveries are deleted with it.</p>
        ) : (
          <p>The new secret is shown once. The old one keeps verifying for 24 hours: both signatures are sent meanwhile.</p>
        )}
      </ConfirmDialog>
    </section>
  )
}
