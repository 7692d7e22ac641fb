import { routeHref, useRoute, type Route } from './core/route.js'
import { useSession } from './core/session-context.js'
import { FilesPage } from './files/files-page.js'
import { TablesPage } from './tables/tables-page.js'
import { TokensPage } from './tokens/tokens-page.js'
import { WebhooksPage } from './webhooks/webhooks-page.js'
import { SearchPage } from './search/search-page.js'
import { EmptyState } from './components/empty-state.js'

/**
 * The signed-in frame: the navigation (only the pages the token may use), the bot switcher, sign out, and the
 * current page.
 *
 * @example
 * ```tsx
 * <Layout onSwitchBot={open} onSignOut={signOut} />
 * ```
 */
export function Layout({ onSwitchBot, onSignOut }: { onSwitchBot: (botId: string) => void; onSignOut: () => void }) {
  const { api, identity, can, searchAvailable } = useSession()
  const route = useRoute()
  const tabs: Array<{ route: Route; label: string; show: boolean }> = [
    { route: { page: 'files' }, label: 'Files', show: can.readFiles },
    { route: { page: 'search' }, label: 'Search', show: searchAvailable && can.readFiles },
    { route: { page: 'tables' }, label: 'Tables', show: can.readTables },
    { route: { page: 'webhooks' }, label: 'Webhooks', show: can.readWebhooks },
    { route: { page: 'tokens' }, label: 'Tokens and bots', show: can.administer },
  ]
  const allowed = tabs.find((tab) => tab.route.page === route.page)?.show ?? false
  return (
    <div class="layout">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <span class="brand">botshelf</span>
        <nav aria-label="Console pages">
          <ul>
            {tabs
              .filter((tab) => tab.show)
              .map((tab) => (
                <li key={tab.label}>
                  <a href={routeHref(tab.route)} aria-current={tab.route.page === route.page ? 'page' : undefined}>
                    {tab.label}
                  </a>
                </li>
              ))}
          </ul>
        </nav>
        <div class="who">
          {identity.bots.length < 2 ? (
            // One bot: nothing to switch to, so its name is text, not a control that looks disabled.
            <span class="bot-name" data-testid="bot-name">
              Bot {identity.bots.map((bot) => `${bot.name} (${bot.id.slice(0, 8)})`).join('')}
            </span>
          ) : (
            <>
              <label for="bot-switch">Bot</label>
              <select id="bot-switch" value={api.botId} onChange={(e) => onSwitchBot(e.currentTarget.value)}>
                {identity.bots.map((bot) => (
                  <option key={bot.id} value={bot.id}>
                    {bot.name} ({bot.id.slice(0, 8)})
                  </option>
                ))}
              </select>
            </>
          )}
          <span class="role" title={`token ${identity.tokenId}`}>
            {identity.scope === 'workspace' ? 'workspace ' : ''}
            {identity.role}
            {identity.integrationName ? ` ${identity.integrationName}` : ''}
          </span>
          <button type="button" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1} key={api.botId}>
        {!allowed ? (
          <EmptyState title="This token cannot use this page.">Its role ({identity.role}) has no access here.</EmptyState>
        ) : route.page === 'files' ? (
          <FilesPage fileId={route.fileId} />
        ) : route.page === 'tables' ? (
          <TablesPage table={route.table} />
        ) : route.page === 'webhooks' ? (
          <WebhooksPage webhookId={route.webhookId} />
        ) : route.page === 'tokens' ? (
          <TokensPage />
        ) : (
          <SearchPage />
        )}
      </main>
    </div>
  )
}
