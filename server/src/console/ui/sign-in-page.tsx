import { useEffect, useState } from 'preact/hooks'
import { redeemSignInCode } from './core/api.js'
import { signInCodeFrom } from './core/sign-in-link.js'
import { ErrorBanner } from './components/error-banner.js'

/**
 * Sign-in: redeems a one-time link's code when the page was opened from one (and removes it from the address
 * bar), else asks for a token (a bot token, or a workspace member token) and, optionally, the bot to open.
 *
 * @example
 * ```tsx
 * <SignInPage onSignedIn={(token, botId) => open({ token, botId })} />
 * ```
 */
export function SignInPage({ onSignedIn }: { onSignedIn: (token: string, botId: string) => Promise<void> }) {
  const [token, setToken] = useState('')
  const [botId, setBotId] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>()

  useEffect(() => {
    const code = signInCodeFrom(location.hash)
    if (!code) return
    history.replaceState(null, '', `${location.pathname}${location.search}`)
    setBusy(true)
    redeemSignInCode(code)
      .then((signedIn) => onSignedIn(signedIn.token, signedIn.bots[0]?.id ?? ''))
      .catch(setError)
      .finally(() => setBusy(false))
  }, [])

  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      await onSignedIn(token.trim(), botId.trim())
    } catch (reason) {
      setError(reason)
    } finally {
      setBusy(false)
    }
  }

  return (
    <main class="sign-in">
      <h1>botshelf console</h1>
      <form onSubmit={submit} aria-describedby="sign-in-help">
        <p id="sign-in-help">
          Sign in with a token: the bot token <code>botshelf serve</code> printed on first start, or a workspace member token
          (<code>botshelf token create --workspace --role administrator</code>). It stays in this tab only.
        </p>
        <ErrorBanner error={error} />
        <label for="token">Token</label>
        <input id="token" name="token" type="password" autocomplete="off" required value={token} onInput={(e) => setToken(e.currentTarget.value)} />
        <label for="bot-id">Bot id (optional: the first bot the token reaches)</label>
        <input id="bot-id" name="botId" value={botId} onInput={(e) => setBotId(e.currentTarget.value)} />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  )
}
