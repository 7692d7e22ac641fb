import { useEffect, useState } from 'preact/hooks'
import type { TokenRow } from '../core/api.js'
import type { BotSummary } from '../core/identity.js'
import { useSession } from '../core/session-context.js'
import { formatTime } from '../core/format.js'
import { ErrorBanner } from '../components/error-banner.js'
import { EmptyState } from '../components/empty-state.js'
import { ConfirmDialog } from '../components/confirm-dialog.js'

const botRoles = ['bot', 'integration', 'viewer', 'developer', 'manager', 'administrator', 'billing_manager']
const memberRoles = ['viewer', 'developer', 'manager', 'administrator', 'billing_manager']

/**
 * Tokens and bots (workspace administrators only): the tokens with their scope, role and state; create one (the
 * secret is shown once); revoke with confirmation; the bots, and a form to add one.
 *
 * @example
 * ```tsx
 * <TokensPage />
 * ```
 */
export function TokensPage() {
  const { api, identity } = useSession()
  const [tokens, setTokens] = useState<TokenRow[] | undefined>()
  const [bots, setBots] = useState<BotSummary[]>(identity.bots)
  const [showRevoked, setShowRevoked] = useState(false)
  const [error, setError] = useState<unknown>()
  const [created, setCreated] = useState<(TokenRow & { token: string }) | undefined>()
  const [revoking, setRevoking] = useState<TokenRow | undefined>()
  const [reloads, setReloads] = useState(0)

  useEffect(() => {
    Promise.all([api.listTokens(showRevoked), api.listBots()])
      .then(([listed, allBots]) => {
        setTokens(listed)
        setBots(allBots)
      })
      .catch(setError)
  }, [showRevoked, reloads])
  const botName = (id: string | null) => (id === null ? 'every bot' : (bots.find((b) => b.id === id)?.name ?? id))

  return (
    <section aria-labelledby="tokens-title">
      <h1 id="tokens-title">Tokens and bots</h1>
      <ErrorBanner error={error} onDismiss={() => setError(undefined)} />
      {created && (
        <div class="banner banner-ok" role="status" data-testid="new-token">
          <p>
            New token <code>{created.id}</code> ({created.role}). Copy it now: it is shown once and stored only as a hash.
          </p>
          <input readOnly aria-label="The new token" value={created.token} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" onClick={() => void navigator.clipboard?.writeText(created.token)}>
            Copy
          </button>
          <button type="button" class="link" onClick={() => setCreated(undefined)}>
            Done
          </button>
        </div>
      )}
      <label class="check">
        <input type="checkbox" checked={showRevoked} onChange={(e) => setShowRevoked(e.currentTarget.checked)} /> Show revoked tokens
      </label>
      {tokens && tokens.length === 0 ? (
        <EmptyState title="No tokens." />
      ) : (
        <table class="grid" data-testid="tokens-table">
          <caption class="visually-hidden">Tokens</caption>
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Label</th>
              <th scope="col">Reaches</th>
              <th scope="col">Role</th>
              <th scope="col">Created</th>
              <th scope="col">State</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens?.map((token) => (
              <tr key={token.id}>
                <td>
                  <code>{token.id}</code>
                  {token.id === identity.tokenId ? ' (this session)' : ''}
                </td>
                <td>{token.label ?? '—'}</td>
                <td>{botName(token.botId)}</td>
                <td>
                  {token.role}
                  {token.integrationName ? ` ${token.integrationName}` : ''}
                </td>
                <td>{formatTime(token.createdAt)}</td>
                <td>{token.revokedAt ? `revoked ${formatTime(token.revokedAt)}` : 'active'}</td>
                <td>
                  {!token.revokedAt && (
                    <button type="button" class="link danger-text" aria-label={`Revoke ${token.label ?? token.id}`} onClick={() => setRevoking(token)}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NewTokenForm
        bots={bots}
        onCreated={(token) => {
          setCreated(token)
          setReloads((n) => n + 1)
        }}
        onError={setError}
      />
      <BotsSection bots={bots} onCreated={() => setReloads((n) => n + 1)} onError={setError} />
      <ConfirmDialog
        open={revoking !== undefined}
        title={`Revoke ${revoking?.label ?? revoking?.id}?`}
        confirmLabel="Revoke"
        onCancel={() => setRevoking(undefined)}
        onConfirm={() => {
          const token = revoking!
          setRevoking(undefined)
          api
            .revokeToken(token.id)
            .then(() => (token.id === identity.tokenId ? location.reload() : setReloads((n) => n + 1)))
            .catch(setError)
        }}
      >
        <p>It stops working at once{revoking?.id === identity.tokenId ? ', and this session ends' : ''}.</p>
      </ConfirmDialog>
    </section>
  )
}

function NewTokenForm({ bots, onCreated, onError }: { bots: BotSummary[]; onCreated: (token: TokenRow & { token: string }) => void; onError: (error: unknown) => void }) {
  const { api } = useSession()
  const [scope, setScope] = useState<'bot' | 'workspace'>('bot')
  const [botId, setBotId] = useState(bots[0]?.id ?? '')
  const [role, setRole] = useState('viewer')
  const [integrationName, setIntegrationName] = useState('')
  const [label, setLabel] = useState('')
  const roles = scope === 'workspace' ? memberRoles : botRoles
  const submit = async (event: Event) => {
    event.preventDefault()
    const labelled = label.trim() ? { label: label.trim() } : {}
    try {
      onCreated(
        await api.createToken(
          scope === 'workspace'
            ? { workspace: true, role, ...labelled }
            : { botId, role, ...(role === 'integration' ? { integrationName: integrationName.trim() } : {}), ...labelled },
        ),
      )
      setLabel('')
    } catch (reason) {
      onError(reason)
    }
  }
  return (
    <form class="card" onSubmit={submit} aria-labelledby="new-token-title">
      <h2 id="new-token-title">Create a token</h2>
      <div class="fields">
        <label>
          Reaches
          <select value={scope} onChange={(e) => (setScope(e.currentTarget.value as 'bot' | 'workspace'), setRole('viewer'))}>
            <option value="bot">one bot</option>
            <option value="workspace">every bot of the workspace</option>
          </select>
        </label>
        {scope === 'bot' && (
          <label>
            Bot
            <select value={botId} onChange={(e) => setBotId(e.currentTarget.value)}>
              {bots.map((bot) => (
                <option key={bot.id} value={bot.id}>
                  {bot.name} ({bot.id.slice(0, 8)})
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Role
          <select name="role" value={role} onChange={(e) => setRole(e.currentTarget.value)}>
            {roles.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        {role === 'integration' && (
          <label>
            Integration name
            <input value={integrationName} required onInput={(e) => setIntegrationName(e.currentTarget.value)} />
          </label>
        )}
        <label>
          Label
          <input name="label" value={label} onInput={(e) => setLabel(e.currentTarget.value)} placeholder="what it is for" />
        </label>
      </div>
      <button type="submit" class="primary">
        Create token
      </button>
    </form>
  )
}

function BotsSection({ bots, onCreated, onError }: { bots: BotSummary[]; onCreated: () => void; onError: (error: unknown) => void }) {
  const { api } = useSession()
  const [name, setName] = useState('')
  return (
    <section aria-labelledby="bots-title">
      <h2 id="bots-title">Bots</h2>
      <ul class="bots">
        {bots.map((bot) => (
          <li key={bot.id}>
            {bot.name} <code>{bot.id}</code> <span class="muted">created {formatTime(bot.createdAt)}</span>
          </li>
        ))}
      </ul>
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault()
          api
            .createBot(name.trim())
            .then(() => (setName(''), onCreated()))
            .catch(onError)
        }}
      >
        <label>
          New bot name <input value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit">Create bot</button>
      </form>
    </section>
  )
}
