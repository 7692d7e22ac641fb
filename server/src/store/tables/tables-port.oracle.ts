/**
 * Differential tests: the filter, sort and group of a tables port against an independent oracle,
 * the `mingo` MongoDB query engine, on random tables, rows and filters from a seeded PRNG.
 *
 * Intended divergences (docs/tables-api.md, "Null and missing"): the store keeps no difference between a
 * missing value and `null`, so generated rows leave values out rather than setting `null`; `$mod` truncates a
 * non-integer value toward zero (MongoDB) where mingo uses JavaScript `%`, so number columns hold integers;
 * top-level `$not` (not MongoDB syntax) is given to the oracle as `$nor: [filter]`; nested values (dot paths into
 * the object column) are scalars, since arrays are not matched element-wise at nested paths.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import mingo from 'mingo'
import type { TablesPort } from './tables-port.js'

type Doc = Record<string, unknown> & { id: number }
type Filter = Record<string, unknown>

/**
 * A seeded PRNG (mulberry32): the same seed gives the same tables, rows and filters on every backend.
 *
 * @example
 * ```ts
 * const rand = mulberry32(7); rand() // a number in [0, 1)
 * ```
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const STRINGS = ['a', 'b', 'ab', 'ba', 'Abc', 'abc', 'bca', 'B', 'zz', '']
const DATES = ['2026-01-01T00:00:00.000Z', '2026-01-02T12:00:00.000Z', '2026-02-01T00:00:00.000Z', '2025-12-31T23:59:59.000Z']
const TAGS = ['x', 'y', 'z']

/** The columns of the random tables: two strings, two numbers, a boolean, a date, an array and an object. */
export const SCHEMA = {
  s1: { type: 'string' },
  s2: { type: 'string' },
  n1: { type: 'number' },
  n2: { type: 'number' },
  b: { type: 'boolean' },
  d: { type: 'string', format: 'date-time' },
  arr: { type: 'array', items: { type: 'string' } },
  obj: { type: 'object' },
} as const
type Col = keyof typeof SCHEMA

/**
 * Random values, rows and filters over {@link SCHEMA} (every operator, nested paths, `$not`, `$or`, `$and`).
 *
 * @example
 * ```ts
 * const gen = new Gen(mulberry32(1)); gen.row(); gen.filter()
 * ```
 */
export class Gen {
  constructor(readonly rand: () => number) {}
  int(lo: number, hi: number) {
    return lo + Math.floor(this.rand() * (hi - lo + 1))
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!
  }
  chance(p: number) {
    return this.rand() < p
  }
  value(col: Col): unknown {
    switch (col) {
      case 's1':
      case 's2':
        return this.pick(STRINGS)
      case 'n1':
        return this.int(-10, 10)
      case 'n2':
        return this.int(0, 1000) / 4
      case 'b':
        return this.chance(0.5)
      case 'd':
        return this.pick(DATES)
      case 'arr':
        return Array.from({ length: this.int(0, 3) }, () => this.pick(TAGS))
      case 'obj': {
        const obj: Record<string, unknown> = {}
        if (this.chance(0.8)) obj['p'] = this.int(-5, 5)
        if (this.chance(0.8)) obj['q'] = this.pick(STRINGS)
        if (this.chance(0.8)) obj['r'] = this.chance(0.5)
        return obj
      }
    }
  }
  nestedLeaf(): Filter {
    const key = this.pick(['p', 'q', 'r'] as const)
    const path = `obj.${key}`
    const operand = () => (key === 'p' ? this.int(-5, 5) : key === 'q' ? this.pick(STRINGS) : this.chance(0.5))
    const ops = ['bare', '$eq', '$ne', '$in', '$nin', '$exists']
    if (key !== 'r') ops.push('$gt', '$gte', '$lt', '$lte')
    if (key === 'q') ops.push('$regex')
    if (key === 'p') ops.push('$mod')
    const op = this.pick(ops)
    let condition: unknown
    switch (op) {
      case 'bare':
        return { [path]: operand() }
      case '$in':
      case '$nin':
        condition = { [op]: [operand(), operand(), ...(this.chance(0.2) ? [null] : [])] }
        break
      case '$exists':
        condition = { $exists: this.chance(0.5) }
        break
      case '$regex':
        condition = { $regex: this.pick(['^a', 'b$', 'c']), ...(this.chance(0.5) ? { $options: 'i' } : {}) }
        break
      case '$mod':
        condition = { $mod: [this.pick([2, 3]), this.int(-1, 1)] }
        break
      default:
        condition = { [op]: this.chance(0.1) && (op === '$eq' || op === '$ne') ? null : operand() }
    }
    if (this.chance(0.15)) condition = { $not: condition }
    return { [path]: condition }
  }
  row(): Record<string, unknown> {
    const row: Record<string, unknown> = {}
    for (const col of Object.keys(SCHEMA) as Col[]) if (this.chance(0.8)) row[col] = this.value(col)
    return row
  }
  scalar(col: Col): unknown {
    return col === 'arr' ? this.pick(TAGS) : this.value(col)
  }
  leaf(): Filter {
    if (this.chance(0.15)) return this.nestedLeaf()
    const col = this.pick([...Object.keys(SCHEMA).filter((c) => c !== 'obj'), 'id'] as const) as Col | 'id'
    if (col === 'id') {
      const op = this.pick(['$gt', '$lte', '$in', '$ne'])
      return { id: op === '$in' ? { $in: [this.int(1, 40), this.int(1, 40)] } : { [op]: this.int(1, 40) } }
    }
    const ops: string[] = ['bare', '$eq', '$ne', '$in', '$nin', '$exists']
    if (col !== 'b' && col !== 'arr') ops.push('$gt', '$gte', '$lt', '$lte')
    if (col === 's1' || col === 's2') ops.push('$regex', '$regex')
    if (col === 'n1') ops.push('$mod')
    if (col === 'arr') ops.push('$size')
    const op = this.pick(ops)
    let condition: unknown
    switch (op) {
      case 'bare':
        return { [col]: this.scalar(col) }
      case '$in':
      case '$nin': {
        const values: unknown[] = Array.from({ length: this.int(1, 3) }, () => this.scalar(col))
        if (this.chance(0.2)) values.push(null)
        condition = { [op]: values }
        break
      }
      case '$exists':
        condition = { $exists: this.chance(0.5) }
        break
      case '$mod':
        condition = { $mod: [this.pick([2, 3, 4]), this.int(-1, 2)] }
        break
      case '$size':
        condition = { $size: this.int(0, 3) }
        break
      case '$regex':
        condition = this.chance(0.5)
          ? { $regex: this.pick(['^a', 'b$', 'c', '^[ab]+$', 'A']) }
          : { $regex: this.pick(['^a', 'b$', 'bc']), $options: 'i' }
        break
      case '$eq':
      case '$ne':
        condition = { [op]: this.chance(0.15) ? null : this.scalar(col) }
        break
      default:
        condition = { [op]: this.scalar(col) }
    }
    if (this.chance(0.15)) condition = { $not: condition }
    return { [col]: condition }
  }
  filter(depth = 0): Filter {
    const r = this.rand()
    if (depth >= 2 || r < 0.4) return this.leaf()
    if (r < 0.55) return { ...this.leaf(), ...this.leaf() }
    if (r < 0.7) return { $and: [this.filter(depth + 1), this.filter(depth + 1)] }
    if (r < 0.85) return { $or: [this.filter(depth + 1), this.filter(depth + 1), this.filter(depth + 1)] }
    return { $not: this.filter(depth + 1) }
  }
}

/** The same filter in MongoDB syntax: top-level `$not` becomes `$nor`. */
function toMongo(filter: unknown): unknown {
  if (Array.isArray(filter)) return filter.map(toMongo)
  if (filter === null || typeof filter !== 'object') return filter
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$not') {
      out['$nor'] = [toMongo(value)]
    } else if (key === '$and' || key === '$or') out[key] = (value as unknown[]).map(toMongo)
    else out[key] = value
  }
  return out
}

/** A fresh table of random rows for one seed, under a bot of its own so seeds share one port. */
async function setup(tables: TablesPort, seed: number) {
  const gen = new Gen(mulberry32(seed))
  const bot = `bot_seed_${seed}`
  await tables.createTable(bot, { name: 'diffTable', schema: { type: 'object', properties: SCHEMA } })
  const input = Array.from({ length: gen.int(20, 60) }, () => gen.row())
  const created = (await tables.createRows(bot, 'diffTable', input)).rows
  const docs: Doc[] = created.map((row, i) => ({ ...input[i]!, id: row.id, createdAt: row.createdAt, updatedAt: row.updatedAt }))
  return { gen, bot, docs }
}

const ids = (rows: ReadonlyArray<{ id: unknown }>) => rows.map((r) => r.id)

/**
 * Declares the differential tests of a `TablesPort` against the mingo oracle: filters with sorting and paging,
 * deletes by filter, and group aggregates, on random tables, rows and filters from seeded PRNGs (the same seeds
 * for every backend). `open` runs once for the suite and returns an empty port; each seed works under a bot of
 * its own.
 *
 * @example
 * ```ts
 * describeTablesDifferential('sqlite-memory', async () => {
 *   const backend = await openSqliteBackend({ memory: true })
 *   return { tables: backend.tables, close: () => backend.close() }
 * })
 * ```
 */
export function describeTablesDifferential(name: string, open: () => Promise<{ tables: TablesPort; close(): Promise<void> }>): void {
  describe(`TablesPort against mingo: ${name}`, () => {
  let opened: { tables: TablesPort; close(): Promise<void> } | undefined
  const tables = (): TablesPort => opened!.tables
  beforeAll(async () => {
    opened = await open()
  })
  afterAll(async () => {
    await opened?.close()
  })

  describe('filters and sorting agree with mingo', () => {
    for (let seed = 1; seed <= 30; seed++) {
      it(`seed ${seed}: same rows in the same order`, async () => {
        const { gen, bot, docs } = await setup(tables(), seed)
        for (let q = 0; q < 25; q++) {
          const filter = gen.filter()
          const orderBy = gen.pick(['id', 's1', 'n1', 'n2', 'b', 'd', 'createdAt'])
          const direction = gen.pick(['asc', 'desc'] as const)
          const offset = gen.chance(0.3) ? gen.int(0, 10) : 0
          const limit = gen.int(1, 80)
          const ours = await tables().findRows(bot, 'diffTable', { filter, orderBy, orderDirection: direction, limit, offset })
          const sort: Record<string, 1 | -1> = { [orderBy]: direction === 'asc' ? 1 : -1 }
          if (orderBy !== 'id') sort['id'] = 1
          const all = mingo.find(docs, toMongo(filter) as Filter).sort(sort).all() as Doc[]
          const expected = all.slice(offset, offset + limit)
          const context = JSON.stringify({ filter, orderBy, direction, offset, limit })
          expect(ids(ours.rows), context).toEqual(ids(expected))
          expect(ours.hasMore, context).toBe(all.length > offset + limit)
        }
      })
    }
  })

  describe('deleteTableRows by filter agrees with mingo', () => {
    for (let seed = 201; seed <= 215; seed++) {
      it(`seed ${seed}: deletes exactly the matching rows`, async () => {
        const { gen, bot, docs } = await setup(tables(), seed)
        let remaining = docs
        for (let q = 0; q < 4; q++) {
          const filter = gen.filter()
          const matched = new Set((mingo.find(remaining, toMongo(filter) as Filter).all() as Doc[]).map((d) => d.id))
          const { deletedRows } = await tables().deleteRows(bot, 'diffTable', { filter })
          expect(deletedRows, JSON.stringify(filter)).toBe(matched.size)
          remaining = remaining.filter((d) => !matched.has(d.id))
          const left = (await tables().findRows(bot, 'diffTable', { limit: 1000 })).rows
          expect(ids(left), JSON.stringify(filter)).toEqual(ids(remaining))
        }
      })
    }
  })

  describe('group aggregates agree with mingo', () => {
    for (let seed = 101; seed <= 120; seed++) {
      it(`seed ${seed}: same groups, same aggregates`, async () => {
        const { gen, bot, docs } = await setup(tables(), seed)
        for (let q = 0; q < 6; q++) {
          const key = gen.pick(['s1', 'b', 'd'] as const)
          const value = gen.pick(['n1', 'n2'] as const)
          const filter = gen.chance(0.5) ? gen.filter() : undefined
          const ours = (
            await tables().findRows(bot, 'diffTable', {
            ...(filter ? { filter } : {}),
            group: { [key]: 'key', [value]: ['count', 'sum', 'avg', 'min', 'max'], s2: 'unique' },
            limit: 1000,
          })
          ).rows as Array<Record<string, unknown>>
          const oracle = mingo.aggregate(docs, [
            { $match: filter ? toMongo(filter) : {} },
            {
              $group: {
                _id: `$${key}`,
                count: { $sum: { $cond: [{ $in: [{ $type: `$${value}` }, ['missing', 'null']] }, 0, 1] } },
                sum: { $sum: `$${value}` },
                avg: { $avg: `$${value}` },
                min: { $min: `$${value}` },
                max: { $max: `$${value}` },
                unique: { $addToSet: '$s2' },
              },
            },
          ]) as Array<Record<string, unknown>>
          const context = JSON.stringify({ key, value, filter })
          expect(ours.length, context).toBe(oracle.length)
          const byKey = new Map(oracle.map((g) => [JSON.stringify(g['_id'] ?? null), g]))
          for (const group of ours) {
            const expected = byKey.get(JSON.stringify(group[`${key}Key`]))
            expect(expected, `${context} group ${JSON.stringify(group)}`).toBeDefined()
            expect(group[`${value}Count`], context).toBe(expected!['count'])
            expect(group[`${value}Sum`], context).toBeCloseTo(expected!['sum'] as number, 9)
            if (expected!['avg'] === null) expect(group[`${value}Avg`], context).toBeNull()
            else expect(group[`${value}Avg`] as number, context).toBeCloseTo(expected!['avg'] as number, 9)
            expect(group[`${value}Min`] ?? null, context).toBe(expected!['min'] ?? null)
            expect(group[`${value}Max`] ?? null, context).toBe(expected!['max'] ?? null)
            const unique = (expected!['unique'] as unknown[]).filter((v) => v !== null && v !== undefined).sort()
            expect([...(group['s2Unique'] as unknown[])].sort(), context).toEqual(unique)
          }
          const keys = ours.map((g) => g[`${key}Key`])
          const sorted = [...keys].sort((a, b) => (a === null ? -1 : b === null ? 1 : a! < b! ? -1 : a! > b! ? 1 : 0))
          expect(keys, `${context}: groups ordered by key`).toEqual(sorted)
        }
      })
    }
  })
  })
}
