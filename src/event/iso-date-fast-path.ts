/**
 * A fast reading of the common ISO 8601 shapes of `createdOn` (`YYYY-MM-DDTHH:mm[:ss[.fff…]]` followed by `Z`,
 * `±HH`, `±HHMM` or `±HH:MM`), giving the very same timestamp as the general parser it sits in front of.
 *
 * Why it exists: the general parser splits and matches the string several times and cost about half of an event's
 * validation. This one reads digits by position. To stay identical it repeats the general parser's rules (hour 24
 * only as 24:00:00, seconds below 60, offset minutes up to 59, offset hours unchecked, days checked against the
 * month and leap years) and its floating-point arithmetic in the same order; `iso-date-fast-path.test.ts` compares
 * both over many generated strings.
 */

const MS_PER_HOUR = 3_600_000
const MS_PER_MINUTE = 60_000
const DAYS_IN_MONTH = [31, 0, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** What the fast path answers when a string is not one of its shapes: the caller uses the general parser. */
export const NOT_A_FAST_SHAPE = undefined

/**
 * Reads a string already matched by the `createdOn` pattern. Returns the epoch milliseconds, `NaN` for an
 * impossible date or time, or `undefined` when the string is not a shape this path reads (lowercase `t`/`z`,
 * years below 100): the caller then asks the general parser.
 *
 * @example
 * ```ts
 * readCommonIsoDateTime('2024-05-01T12:00:00+02:00') // 1714557600000
 * readCommonIsoDateTime('2024-02-30T00:00:00Z') // NaN
 * readCommonIsoDateTime('2024-05-01t12:00:00z') // undefined
 * ```
 */
export function readCommonIsoDateTime(value: string): number | undefined {
  if (value.charCodeAt(10) !== 84 /* T */) return NOT_A_FAST_SHAPE
  const year = digits4(value, 0)
  // The general parser places years 0-99 as they are, where Date.UTC would move them to the 1900s.
  if (year < 100) return NOT_A_FAST_SHAPE
  const month = digits2(value, 5) - 1
  const day = digits2(value, 8)
  if (month < 0 || month > 11 || day < 1 || day > daysIn(year, month)) return Number.NaN
  const hours = digits2(value, 11)
  const minutes = digits2(value, 14)

  // After HH:mm comes either the zone, or `:ss` with an optional fraction and then the zone.
  let index = 16
  let seconds = 0
  if (value.charCodeAt(index) === 58 /* : */) {
    let end = index + 3
    if (value.charCodeAt(end) === 46 /* . */) {
      end++
      while (isDigit(value.charCodeAt(end))) end++
      seconds = Number.parseFloat(value.slice(index + 1, end)) || 0
    } else {
      seconds = digits2(value, index + 1)
    }
    index = end
  }
  if (hours === 24 ? minutes !== 0 || seconds !== 0 : hours > 24 || minutes >= 60 || seconds >= 60) return Number.NaN
  const time = hours * MS_PER_HOUR + minutes * MS_PER_MINUTE + seconds * 1000

  const zone = value.charCodeAt(index)
  let offset = 0
  if (zone === 90 /* Z */) {
    if (index + 1 !== value.length) return NOT_A_FAST_SHAPE
  } else if (zone === 43 /* + */ || zone === 45 /* - */) {
    const offsetHours = digits2(value, index + 1)
    const rest = value.length - (index + 3)
    let offsetMinutes = 0
    if (rest === 3) offsetMinutes = digits2(value, index + 4) // ±HH:MM
    else if (rest === 2) offsetMinutes = digits2(value, index + 3) // ±HHMM
    else if (rest !== 0) return NOT_A_FAST_SHAPE
    if (offsetMinutes > 59) return Number.NaN
    offset = (zone === 43 ? -1 : 1) * (offsetHours * MS_PER_HOUR + offsetMinutes * MS_PER_MINUTE)
  } else {
    return NOT_A_FAST_SHAPE
  }
  return Date.UTC(year, month, day) + time + offset
}

function daysIn(year: number, month: number): number {
  const days = DAYS_IN_MONTH[month]!
  if (days !== 0) return days
  return year % 400 === 0 || (year % 4 === 0 && year % 100 !== 0) ? 29 : 28
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57
}

function digits2(value: string, at: number): number {
  return (value.charCodeAt(at) - 48) * 10 + (value.charCodeAt(at + 1) - 48)
}

function digits4(value: string, at: number): number {
  return digits2(value, at) * 100 + digits2(value, at + 2)
}
