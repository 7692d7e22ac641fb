import { useRef, useState } from 'preact/hooks'
import type { SearchPassage } from 'botshelf/client'
import { useSession } from '../core/session-context.js'
import { ErrorBanner } from '../components/error-banner.js'
import { EmptyState } from '../components/empty-state.js'
import { TagFilterEditor } from '../files/tag-filter-editor.js'
import { RESULT_LIMIT, querySizeOf, searchInputOf, type SearchForm } from './search-request.js'
import { SearchResult } from './search-result.js'
import { emptySearchMessage, type EmptySearchMessage } from 'botshelf/client'

/** The answer on screen and the form it answers (the form may have changed since). */
interface Answer {
  form: SearchForm
  passages: SearchPassage[]
  /** Why the answer is empty, when it is. */
  empty?: EmptySearchMessage
}

/**
 * The Search page: a query box over the bot's indexed files (Enter searches), tag filters, a result limit and a
 * "with context" toggle; each result shows its passage as text, its score and meta, the context entries when
 * asked, and the file it comes from (linking to the file's page). The query's size is shown in bytes against the
 * service's 1024-byte limit; an over-long query is still sent so the refusal shown is the service's (decision 1106).
 *
 * @example
 * ```tsx
 * <SearchPage />
 * ```
 */
export function SearchPage() {
  const { api } = useSession()
  const [form, setForm] = useState<SearchForm>({ query: '', tags: {}, limit: RESULT_LIMIT.default, withContext: false })
  const [answer, setAnswer] = useState<Answer | undefined>()
  const [loading, setLoading] = useState(false)
  const [error, setError] = useState<unknown>()
  // Only the latest search may write the answer: an earlier, slower one is dropped when it lands.
  const latest = useRef(0)
  const size = querySizeOf(form.query)

  const search = (asked: SearchForm) => {
    const ticket = ++latest.current
    setLoading(true)
    setError(undefined)
    api.client
      .searchFiles(searchInputOf(asked))
      .then(async ({ passages }) => {
        const empty = passages.length === 0 ? await emptySearchMessage(api.client) : undefined
        if (ticket === latest.current) setAnswer({ form: asked, passages, ...(empty ? { empty } : {}) })
      })
      .catch((reason: unknown) => ticket === latest.current && (setError(reason), setAnswer(undefined)))
      .finally(() => ticket === latest.current && setLoading(false))
  }

  return (
    <section aria-labelledby="search-title">
      <h1 id="search-title">Search</h1>
      <form
        role="search"
        class="search-form"
        aria-label="Search the bot's indexed files"
        onSubmit={(event) => {
          event.preventDefault()
          search(form)
        }}
      >
        <label for="search-query">Query</label>
        <div class="search-box">
          <input
            id="search-query"
            type="search"
            value={form.query}
            onInput={(e) => setForm({ ...form, query: e.currentTarget.value })}
            placeholder="a question or words from your documents"
            aria-describedby="search-query-size"
            aria-invalid={size.tooLong}
            autocomplete="off"
            required
          />
          <button type="submit" class="primary" disabled={loading}>
            Search
          </button>
        </div>
        <p id="search-query-size" class={size.tooLong ? 'query-size danger-text' : 'query-size muted'}>
          {size.text}
        </p>
        <div class="search-options">
          <label class="inline">
            Results
            <input
              type="number"
              min={RESULT_LIMIT.min}
              max={RESULT_LIMIT.max}
              value={form.limit ?? ''}
              onInput={(e) => setForm({ ...form, limit: e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value) })}
              size={4}
            />
          </label>
          <label class="check">
            <input type="checkbox" checked={form.withContext} onChange={(e) => setForm({ ...form, withContext: e.currentTarget.checked })} />
            With context (headings and the passages around each hit)
          </label>
        </div>
      </form>
      <div class="toolbar">
        <span class="muted">Only files with these tags:</span>
        <TagFilterEditor tags={form.tags} onChange={(tags) => setForm({ ...form, tags })} />
      </div>
      <ErrorBanner error={error} onDismiss={() => setError(undefined)} />
      <Results answer={answer} loading={loading} />
    </section>
  )
}

function Results({ answer, loading }: { answer: Answer | undefined; loading: boolean }) {
  if (loading) {
    return (
      <p role="status" class="muted">
        Searching…
      </p>
    )
  }
  if (!answer) {
    return (
      <EmptyState title="Search the passages of the bot's indexed files.">
        Only files uploaded with "Index for search" (<code>index: true</code>) are searched, once their status is indexing completed.
      </EmptyState>
    )
  }
  return (
    <>
      <p role="status" class="result-count">
        {answer.passages.length === 0
          ? '0 passages.'
          : `${answer.passages.length} passage${answer.passages.length === 1 ? '' : 's'}, best first.`}
      </p>
      {answer.passages.length === 0 ? (
        answer.empty === 'no indexed files' ? (
          <EmptyState title="No indexed files.">
            This bot has no file to search: upload documents with "Index for search" (<code>index: true</code>).
          </EmptyState>
        ) : (
          <EmptyState title="No relevant passage.">
            No passage scored above the server's relevance floor. Try other words, fewer tag filters, or check on the
            Files page that the documents finished indexing.
          </EmptyState>
        )
      ) : (
        <ol class="results" aria-label="Search results">
          {answer.passages.map((passage, index) => (
            <SearchResult key={`${passage.file.id}:${passage.meta.position ?? index}:${index}`} passage={passage} rank={index + 1} />
          ))}
        </ol>
      )}
    </>
  )
}
