import { useEffect, useState } from 'preact/hooks'
import { ConsoleApi, whoami } from './core/api.js'
import { capabilitiesOf } from './core/identity.js'
import { clearSession, loadSession, saveSession, type StoredSession } from './core/session-store.js'
import { SessionContext, type ConsoleSession } from './core/session-context.js'
import { signInCodeFrom } from './core/sign-in-link.js'
import { SignInPage } from './sign-in-page.js'
import { Layout } from './layout.js'
import { searchAvailable } from './search/search-availability.js'
import { ErrorBanner } from './components/error-banner.js'

/**
 * The console: the sign-in page until a token is known and checked, then the signed-in layout.
 *
 * @example
 * ```tsx
 * render(<App />, document.getElementById('app')!)
 * ```
 */
export function App() {
  const [session, setSession] = useState<ConsoleSession | undefined>()
  const [checking, setChecking] = useState(true)
  const [error, setError] = useState<unknown>()

  const open = async (stored: StoredSession): Promise<void> => {
    const identity = await whoami(stored.token)
    const botId = identity.bots.some((b) => b.id === stored.botId) ? stored.botId : identity.bots[0]?.id
    if (!botId) throw new Error('This token reaches no bot: create one with "botshelf bot create" first')
    const api = new ConsoleApi(stored.token, botId)
    saveSession({ token: stored.token, botId })
    const canSearch = await searchAvailable(api.client)
    setSession({ api, identity, can: capabilitiesOf(identity), searchAvailable: canSearch })
  }

  useEffect(() => {
    const saved = loadSession()
    const hasCode = signInCodeFrom(location.hash) !== undefined
    if (!saved || hasCode) {
      setChecking(false)
      return
    }
    open(saved)
      .catch((reason: unknown) => {
        clearSession()
        setError(reason)
      })
      .finally(() => setChecking(false))
  }, [])

  if (checking) return <p class="loading" role="status">Loading…</p>
  if (!session) {
    return (
      <>
        <ErrorBanner error={error} />
        <SignInPage onSignedIn={(token, botId) => open({ token, botId })} />
      </>
    )
  }
  return (
    <SessionContext.Provider value={session}>
      <Layout
        onSwitchBot={(botId) => void open({ token: session.api.token, botId }).catch(setError)}
        onSignOut={() => {
          clearSession()
          setSession(undefined)
          location.hash = ''
        }}
      />
    </SessionContext.Provider>
  )
}
