import type { ComponentChildren } from 'preact'

/** What a list shows when it has nothing, with what to do next. @example `<EmptyState title="No files yet">Drop one here</EmptyState>` */
export function EmptyState({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children && <div class="empty-hint">{children}</div>}
    </div>
  )
}
