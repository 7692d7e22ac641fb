import { EmptyState } from '../components/empty-state.js'

/**
 * The Search page: shown only when the service answers `searchFiles`. Its query box, passages and scores are
 * not built in this console yet (the search API is being built alongside); it says so instead of pretending.
 *
 * @example
 * ```tsx
 * <SearchPage />
 * ```
 */
export function SearchPage() {
  return (
    <section aria-labelledby="search-title">
      <h1 id="search-title">Search</h1>
      <EmptyState title="The service answers search, but this console's Search page is not built yet.">
        Use <code>searchFiles</code> from botshelf's client meanwhile.
      </EmptyState>
    </section>
  )
}
