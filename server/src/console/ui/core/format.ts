/**
 * A byte count for people: `0 B`, `1.5 KB`, `12 MB` (powers of 1024, one decimal under 10).
 *
 * @example
 * ```ts
 * formatBytes(1536) // '1.5 KB'
 * ```
 */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—'
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1
  return `${value.toFixed(digits)} ${units[unit]}`
}

/**
 * An ISO time in the reader's locale, short; `—` for none.
 *
 * @example
 * ```ts
 * formatTime('2026-05-01T10:00:00Z') // '01/05/2026, 12:00' (locale dependent)
 * ```
 */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—'
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })
}

/**
 * The value of an `<input type="datetime-local">` for an ISO time (local time, minutes), or '' for none.
 *
 * @example
 * ```ts
 * toLocalInput(undefined) // ''
 * ```
 */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return ''
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return ''
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000)
  return local.toISOString().slice(0, 16)
}
