/**
 * A byte count for people, written as the CLI writes it (`botshelf files ls`, progress): `0 B`, `1.5 kB`,
 * `21.0 MB`, in powers of 1000 with one decimal, so one file shows one size everywhere (issue 27).
 *
 * @example
 * ```ts
 * formatBytes(1536) // '1.5 kB'
 * formatBytes(20 * 1024 * 1024) // '21.0 MB'
 * ```
 */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—'
  if (bytes < 1000) return `${bytes} B`
  const units = ['kB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = -1
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit += 1
  }
  return `${value.toFixed(1)} ${units[unit]}`
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
