import { isValid, parseISO } from 'date-fns'
import { describe, expect, it } from 'vitest'
import { seededRandom } from '../testing/seeded-random.js'
import { parseEventDate } from './created-on.js'
import { readCommonIsoDateTime } from './iso-date-fast-path.js'

/** The `createdOn` pattern, as `created-on.ts` applies it before any parsing. */
const PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/i

/** The reference: the pattern, then the general parser alone. */
function reference(value: string): number | undefined {
  if (!PATTERN.test(value)) return undefined
  const parsed = parseISO(value)
  return isValid(parsed) ? parsed.getTime() : undefined
}


const pad = (n: number, width: number) => String(n).padStart(width, '0')

function generate(count: number, seed: number): string[] {
  const random = seededRandom(seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  const int = (max: number) => Math.floor(random() * (max + 1))
  const years = [0, 1, 99, 100, 1600, 1900, 1970, 2000, 2023, 2024, 2100, 2400, 9999]
  const zones = ['Z', 'z', '+00:00', '-00:00', '+02:00', '-04:30', '+0200', '-0530', '+01', '-12', '+14:00', '+99:59', '+05:60', '-23:99', '+2400', '+00']
  const fractions = ['', '.0', '.1', '.123', '.999', '.9999999', '.123456789012', '.5', '.000', '.1234']
  const values: string[] = []
  for (let i = 0; i < count; i++) {
    const year = random() < 0.4 ? pick(years) : int(9999)
    const month = random() < 0.9 ? 1 + int(11) : pick([0, 13, 19, 99])
    const day = random() < 0.7 ? 1 + int(27) : pick([0, 28, 29, 30, 31, 32, 99])
    const hour = random() < 0.85 ? int(23) : pick([24, 25, 99])
    const minute = random() < 0.9 ? int(59) : pick([0, 60, 99])
    const second = random() < 0.9 ? int(59) : pick([0, 60, 61, 99])
    const t = random() < 0.95 ? 'T' : 't'
    let time = `${pad(hour, 2)}:${pad(minute, 2)}`
    const withSeconds = random()
    if (withSeconds < 0.8) time += `:${pad(second, 2)}${pick(fractions)}`
    values.push(`${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}${t}${time}${pick(zones)}`)
  }
  return values
}

const edgeCases = [
  '2024-02-29T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2100-02-29T00:00:00Z',
  '2000-02-29T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '2024-04-31T00:00:00Z',
  '2024-12-31T23:59:59.999Z',
  '2024-12-31T24:00:00Z',
  '2024-12-31T24:00Z',
  '2024-12-31T24:00:00.000Z',
  '2024-12-31T24:00:00.001Z',
  '2024-12-31T24:01:00Z',
  '2024-05-01T10:20:60Z',
  '2024-05-01T10:60Z',
  '2024-05-01T10:20:30.Z',
  '2024-05-01t10:20:30Z',
  '2024-05-01T10:20:30z',
  '0000-01-01T00:00:00Z',
  '0099-12-31T23:59:59Z',
  '0100-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999-99:59',
  '2024-05-01T12:20:30.123+02:00',
  '2024-05-01T12:20:30+0200',
  '2024-05-01T11:00+01',
  '2024-05-01T10:00:00.123456Z',
  '2024-05-01T10:00:00',
  'yesterday',
  '',
]

describe('the fast path for common ISO 8601 shapes', () => {
  const generated = generate(60_000, 15)

  it('gives exactly the timestamp (or refusal) of the general parser, over generated and edge-case strings', () => {
    const mismatches: string[] = []
    for (const value of [...edgeCases, ...generated]) {
      const expected = reference(value)
      const actual = parseEventDate(value)?.getTime()
      if (!Object.is(actual, expected)) mismatches.push(`${value}: fast ${actual}, general ${expected}`)
    }
    expect(mismatches.slice(0, 10)).toEqual([])
  })

  it('reads most generated strings itself, valid and invalid, so the comparison above covers it', () => {
    const matched = generated.filter((value) => PATTERN.test(value))
    const fast = matched.map((value) => readCommonIsoDateTime(value))
    const read = fast.filter((ms) => ms !== undefined)
    expect(read.length).toBeGreaterThan(matched.length * 0.8)
    expect(read.filter((ms) => Number.isNaN(ms)).length).toBeGreaterThan(1000)
    expect(read.filter((ms) => !Number.isNaN(ms)).length).toBeGreaterThan(10_000)
  })

  it('never reads a string the pattern refuses (near misses: one character replaced, removed or added)', () => {
    const random = seededRandom(1202)
    const alphabet = '0123456789-:+.TZtz _/x'
    const accepted: string[] = []
    const misread: string[] = []
    for (const base of [...edgeCases, ...generated.slice(0, 20_000)]) {
      const at = Math.floor(random() * (base.length + 1))
      const char = alphabet[Math.floor(random() * alphabet.length)]!
      const roll = random()
      const value =
        roll < 0.4 ? base.slice(0, at) + char + base.slice(at + 1) : roll < 0.7 ? base.slice(0, at) + base.slice(at + 1) : base.slice(0, at) + char + base.slice(at)
      const read = readCommonIsoDateTime(value)
      if (read === undefined) continue
      if (PATTERN.test(value)) accepted.push(value)
      else misread.push(value)
    }
    expect(misread.slice(0, 10)).toEqual([])
    expect(accepted.length).toBeGreaterThan(1000)
  })

  it('refuses, at every position, the characters next to the digits and digits of other scripts', () => {
    // `/` and `:` sit just below and above `0`-`9`; the others are far above, or digits the pattern's `\d` refuses.
    const strangers = ['/', ':', '\u0000', '\u0660', '\u0663', '\uff10', '\uff19', '\u{1d7ce}', '\uffff']
    const misread: string[] = []
    for (const base of ['2024-05-01T12:20:30.123+02:00', '2024-05-01T12:20Z', '2024-02-29T23:59:59-0130', '1999-12-31T24:00:00+05']) {
      for (let at = 0; at < base.length; at++) {
        for (const stranger of strangers) {
          for (const value of [base.slice(0, at) + stranger + base.slice(at + 1), base.slice(0, at) + stranger + base.slice(at)]) {
            if (readCommonIsoDateTime(value) !== undefined && !PATTERN.test(value)) misread.push(value)
          }
        }
      }
    }
    expect(misread).toEqual([])
  })

  it('counts days as Date.UTC does, for every month of every year it reads (100 to 9999)', () => {
    const mismatches: string[] = []
    for (let year = 100; year <= 9999; year++) {
      for (let month = 1; month <= 12; month++) {
        for (const day of [1, 28, 29, 30, 31]) {
          const value = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T00:00Z`
          const expected = Date.UTC(year, month - 1, day)
          const exists = new Date(expected).getUTCDate() === day
          const actual = readCommonIsoDateTime(value)
          if (exists ? actual !== expected : !Number.isNaN(actual)) mismatches.push(`${value}: ${actual}, Date.UTC ${expected}`)
        }
      }
    }
    expect(mismatches.slice(0, 10)).toEqual([])
  })

  it('reads seconds with a fraction exactly as parseFloat does (every millisecond, and long fractions)', () => {
    const random = seededRandom(1204)
    const mismatches: string[] = []
    const check = (text: string) => {
      const value = `2024-05-01T10:20:${text}Z`
      const expected = Date.UTC(2024, 4, 1) + (10 * 3_600_000 + 20 * 60_000 + Number.parseFloat(text) * 1000)
      if (!Object.is(readCommonIsoDateTime(value), expected)) mismatches.push(`${value}: ${readCommonIsoDateTime(value)}, expected ${expected}`)
    }
    for (let second = 0; second < 60; second++) for (let ms = 0; ms < 1000; ms++) check(`${pad(second, 2)}.${pad(ms, 3)}`)
    for (let i = 0; i < 20_000; i++) {
      const digits = 1 + Math.floor(random() * 18)
      let fraction = ''
      for (let d = 0; d < digits; d++) fraction += String(Math.floor(random() * 10))
      check(`${pad(Math.floor(random() * 60), 2)}.${fraction}`)
    }
    expect(mismatches.slice(0, 10)).toEqual([])
  })

  it('leaves lowercase separators and two-digit years to the general parser', () => {
    expect(readCommonIsoDateTime('2024-05-01t10:20:30Z')).toBeUndefined()
    expect(readCommonIsoDateTime('2024-05-01T10:20:30z')).toBeUndefined()
    expect(readCommonIsoDateTime('0042-05-01T10:20:30Z')).toBeUndefined()
  })

  it('refuses impossible dates and times with NaN', () => {
    expect(readCommonIsoDateTime('2023-02-29T00:00:00Z')).toBeNaN()
    expect(readCommonIsoDateTime('2024-05-01T24:00:01Z')).toBeNaN()
    expect(readCommonIsoDateTime('2024-05-01T10:00+05:60')).toBeNaN()
    expect(readCommonIsoDateTime('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29))
  })
})
