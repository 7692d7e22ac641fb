/**
 * A fast reading of the common ISO 8601 shapes of `createdOn` (`YYYY-MM-DDTHH:mm[:ss[.fff…]]` followed by `Z`,
 * `±HH`, `±HHMM` or `±HH:MM`), giving the very same timestamp as the general parser it sits in front of.
 *
 * Why it exists: the general parser splits and matches the string several times and cost about half of an event's
 * validation. This one reads digits by position and checks every character itself, so the pattern is skipped
 * too for the strings it reads. To stay identical it repeats the general parser's rules (hour 24
 * only as 24:00:00, seconds below 60, offset minutes up to 59, offset hours unchecked, days checked against the
 * month and leap years) and its floating-point arithmetic in the same order; `iso-date-fast-path.test.ts` compares
 * both over many generated strings.
 */

const MS_PER_HOUR = 3_600_000
const MS_PER_MINUTE = 60_000
const MS_PER_DAY = 86_400_000
const DAYS_IN_MONTH = [31, 0, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
/** Days from March 1 to the first of each month (index 0 = January), in a year counted from March. */
const DAYS_BEFORE_MONTH_FROM_MARCH = [306, 337, 0, 31, 61, 92, 122, 153, 184, 214, 245, 275]

/** What the fast path answers when a string is not one of its shapes: the caller uses the general parser. */
export const NOT_A_FAST_SHAPE = undefined

/**
 * Reads an event timestamp by position. Returns the epoch milliseconds, `NaN` for an impossible date or time, or
 * `undefined` when the string is not exactly one of the common shapes (anything the `createdOn` pattern would
 * refuse, lowercase `t`/`z`, years below 100): the caller then applies the pattern and the general parser. Every
 * character is checked here, so a string this function reads is one the pattern accepts.
 *
 * @example
 * ```ts
 * readCommonIsoDateTime('2024-05-01T12:00:00+02:00') // 1714557600000
 * readCommonIsoDateTime('2024-02-30T00:00:00Z') // NaN
 * readCommonIsoDateTime('2024-05-01t12:00:00z') // undefined
 * readCommonIsoDateTime('2024-05-01 12:00:00Z') // undefined
 * ```
 */
export function readCommonIsoDateTime(value: string): number | undefined {
  const length = value.length
  // YYYY-MM-DDTHH:mm is 16 characters, and at least `Z` follows.
  if (length < 17) return NOT_A_FAST_SHAPE
  // Each character is read once. A digit's value is its code minus 48; `bad` gathers `d | (9 - d)` of every digit
  // read, which is negative as soon as one of them is not a digit (all 16 positions exist: length >= 17).
  const y0 = value.charCodeAt(0) - 48
  const y1 = value.charCodeAt(1) - 48
  const y2 = value.charCodeAt(2) - 48
  const y3 = value.charCodeAt(3) - 48
  const mo0 = value.charCodeAt(5) - 48
  const mo1 = value.charCodeAt(6) - 48
  const d0 = value.charCodeAt(8) - 48
  const d1 = value.charCodeAt(9) - 48
  const h0 = value.charCodeAt(11) - 48
  const h1 = value.charCodeAt(12) - 48
  const mi0 = value.charCodeAt(14) - 48
  const mi1 = value.charCodeAt(15) - 48
  const bad =
    y0 | (9 - y0) | y1 | (9 - y1) | y2 | (9 - y2) | y3 | (9 - y3) | mo0 | (9 - mo0) | mo1 | (9 - mo1) |
    d0 | (9 - d0) | d1 | (9 - d1) | h0 | (9 - h0) | h1 | (9 - h1) | mi0 | (9 - mi0) | mi1 | (9 - mi1)
  if (
    bad < 0 ||
    value.charCodeAt(4) !== 45 /* - */ ||
    value.charCodeAt(7) !== 45 /* - */ ||
    value.charCodeAt(10) !== 84 /* T */ ||
    value.charCodeAt(13) !== 58 /* : */
  ) {
    return NOT_A_FAST_SHAPE
  }
  const year = y0 * 1000 + y1 * 100 + y2 * 10 + y3
  // The general parser places years 0-99 as they are, where Date.UTC would move them to the 1900s.
  if (year < 100) return NOT_A_FAST_SHAPE

  // After HH:mm comes either the zone, or `:ss` with an optional fraction and then the zone.
  let index = 16
  let seconds = 0
  if (value.charCodeAt(index) === 58 /* : */) {
    if (!isDigit(value.charCodeAt(index + 1)) || !isDigit(value.charCodeAt(index + 2))) return NOT_A_FAST_SHAPE
    const wholeSeconds = digits2(value, index + 1)
    let end = index + 3
    if (value.charCodeAt(end) === 46 /* . */) {
      end++
      const firstDigit = end
      let fraction = 0
      let scale = 1
      for (let code = value.charCodeAt(end); isDigit(code); code = value.charCodeAt(++end)) {
        fraction = fraction * 10 + (code - 48)
        scale *= 10
      }
      if (end === firstDigit) return NOT_A_FAST_SHAPE
      // `ss.fff…` as parseFloat reads it: with up to 13 digits, seconds × 10^digits + fraction and 10^digits are
      // exact integers, and IEEE division rounds their exact quotient (the decimal itself) correctly, as parseFloat
      // does. Longer fractions are parsed as the general parser does.
      seconds = end - firstDigit <= 13 ? (wholeSeconds * scale + fraction) / scale : Number.parseFloat(value.slice(index + 1, end)) || 0
    } else {
      seconds = wholeSeconds
    }
    index = end
  }

  const zone = value.charCodeAt(index)
  let offset = 0
  if (zone === 90 /* Z */) {
    if (index + 1 !== length) return NOT_A_FAST_SHAPE
  } else if (zone === 43 /* + */ || zone === 45 /* - */) {
    if (!isDigit(value.charCodeAt(index + 1)) || !isDigit(value.charCodeAt(index + 2))) return NOT_A_FAST_SHAPE
    const offsetHours = digits2(value, index + 1)
    const rest = length - (index + 3)
    let offsetMinutes = 0
    let minutesAt = -1
    if (rest === 3 && value.charCodeAt(index + 3) === 58 /* : */) minutesAt = index + 4 // ±HH:MM
    else if (rest === 2) minutesAt = index + 3 // ±HHMM
    else if (rest !== 0) return NOT_A_FAST_SHAPE
    if (minutesAt >= 0) {
      if (!isDigit(value.charCodeAt(minutesAt)) || !isDigit(value.charCodeAt(minutesAt + 1))) return NOT_A_FAST_SHAPE
      offsetMinutes = digits2(value, minutesAt)
    }
    if (offsetMinutes > 59) return Number.NaN
    offset = (zone === 43 ? -1 : 1) * (offsetHours * MS_PER_HOUR + offsetMinutes * MS_PER_MINUTE)
  } else {
    return NOT_A_FAST_SHAPE
  }

  // The shape is right; now the values, as the general parser checks them.
  const month = mo0 * 10 + mo1 - 1
  const day = d0 * 10 + d1
  if (month < 0 || month > 11 || day < 1 || day > daysIn(year, month)) return Number.NaN
  const hours = h0 * 10 + h1
  const minutes = mi0 * 10 + mi1
  if (hours === 24 ? minutes !== 0 || seconds !== 0 : hours > 24 || minutes >= 60 || seconds >= 60) return Number.NaN
  const time = hours * MS_PER_HOUR + minutes * MS_PER_MINUTE + seconds * 1000
  return daysSinceEpoch(year, month, day) * MS_PER_DAY + time + offset
}

/**
 * Days from 1970-01-01 to a date of the proleptic Gregorian calendar (years 100 to 9999, `month` from 0): what
 * `Date.UTC(year, month, day) / 86_400_000` gives, in integer arithmetic that costs a fraction of that call.
 */
function daysSinceEpoch(year: number, month: number, day: number): number {
  // Count from March, so that the leap day ends a year. All values are small non-negative integers, so `(a / b) | 0`
  // is the floor of the quotient (and compiles to integer division).
  const y = month < 2 ? year - 1 : year
  const leapDays = ((y / 4) | 0) - ((y / 100) | 0) + ((y / 400) | 0)
  return y * 365 + leapDays + DAYS_BEFORE_MONTH_FROM_MARCH[month]! + day - 1 - 719_468
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
