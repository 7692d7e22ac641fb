/**
 * A byte count for people: `512 B`, `1.5 kB`, `12.0 MB` (powers of 1000, as disk and network tools show them).
 *
 * @example
 * ```ts
 * formatBytes(1_500) // '1.5 kB'
 * ```
 */
export function formatBytes(bytes: number): string {
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
 * A duration in seconds for people: `4s`, `2m05s`, `1h02m`.
 *
 * @example
 * ```ts
 * formatSeconds(125) // '2m05s'
 * ```
 */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?'
  const s = Math.round(seconds)
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
}
