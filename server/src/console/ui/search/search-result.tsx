import type { SearchPassage } from 'botshelf/client'
import { routeHref } from '../core/route.js'
import { describeMeta } from './passage-meta.js'

/**
 * One search result: its rank and score, where it comes from (the file's key, linking to the file's page in the
 * console, and the passage's meta), its content, and the context entries when they were asked for. Every text is
 * rendered as text (user content is never markup in the console's origin, decision 1104).
 *
 * @example
 * ```tsx
 * <SearchResult passage={passages[0]} rank={1} />
 * ```
 */
export function SearchResult({ passage, rank }: { passage: SearchPassage; rank: number }) {
  const context = passage.context ?? []
  const breadcrumb = context.filter((entry) => entry.type === 'breadcrumb')
  const before = context.filter((entry) => entry.type === 'preceding')
  const after = context.filter((entry) => entry.type === 'subsequent')
  const titleId = `result-${rank}`
  return (
    <li class="card result" aria-labelledby={titleId} data-testid="search-result">
      <div class="result-head" id={titleId}>
        <span class="result-rank">#{rank}</span>{' '}
        <a href={routeHref({ page: 'files', fileId: passage.file.id })} class="result-file">
          {passage.file.key}
        </a>{' '}
        <span class="muted result-meta">{describeMeta(passage.meta)}</span>
        <span class="result-score" title="Relevance score (higher is closer; compare within one search only)">
          score <data value={String(passage.score)}>{passage.score.toFixed(4)}</data>
        </span>
      </div>
      {breadcrumb.map((entry, index) => (
        <p key={`b${index}`} class="result-breadcrumb muted" data-testid="context-breadcrumb">
          <span class="visually-hidden">Under the headings: </span>
          {entry.text}
        </p>
      ))}
      {before.map((entry, index) => (
        <pre key={`p${index}`} class="result-context" data-testid="context-preceding">
          <span class="visually-hidden">Before the hit: </span>
          {entry.text}
        </pre>
      ))}
      <pre class="result-content" data-testid="result-content">
        {passage.content}
      </pre>
      {after.map((entry, index) => (
        <pre key={`s${index}`} class="result-context" data-testid="context-subsequent">
          <span class="visually-hidden">After the hit: </span>
          {entry.text}
        </pre>
      ))}
    </li>
  )
}
