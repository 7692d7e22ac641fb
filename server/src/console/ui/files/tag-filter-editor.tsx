import { useState } from 'preact/hooks'

/**
 * The list's tag conditions: chips to remove, and a small form to add `key = value` (values separated by commas
 * match any of them).
 *
 * @example
 * ```tsx
 * <TagFilterEditor tags={query.tags} onChange={(tags) => setQuery({ ...query, tags })} />
 * ```
 */
export function TagFilterEditor({ tags, onChange }: { tags: Record<string, string[]>; onChange: (tags: Record<string, string[]>) => void }) {
  const [key, setKey] = useState('')
  const [value, setValue] = useState('')
  const add = (event: Event) => {
    event.preventDefault()
    if (!key.trim()) return
    const values = value.split(',').map((v) => v.trim()).filter(Boolean)
    onChange({ ...tags, [key.trim()]: values })
    setKey('')
    setValue('')
  }
  return (
    <div class="tag-filters">
      {Object.entries(tags).map(([tagKey, values]) => (
        <span class="chip" key={tagKey}>
          {tagKey} = {values.join(' or ')}
          <button
            type="button"
            class="link"
            aria-label={`Remove the tag filter ${tagKey}`}
            onClick={() => {
              const { [tagKey]: _removed, ...rest } = tags
              onChange(rest)
            }}
          >
            ✕
          </button>
        </span>
      ))}
      <form class="inline" onSubmit={add} aria-label="Add a tag filter">
        <label>
          Tag <input value={key} onInput={(e) => setKey(e.currentTarget.value)} size={10} />
        </label>
        <label>
          = <input value={value} onInput={(e) => setValue(e.currentTarget.value)} size={12} aria-label="Tag values (comma separated)" />
        </label>
        <button type="submit">Filter</button>
      </form>
    </div>
  )
}
