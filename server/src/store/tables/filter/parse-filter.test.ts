import { describe, expect, it } from 'vitest'
import { TablesStoreError } from '../errors.js'
import { tableColumns } from '../table-columns.js'
import { newTableSchema } from '../table-schema.js'
import type { ColumnTarget, FilterNode, PathTarget } from './ast.js'
import { parseFilter } from './parse-filter.js'
import { queryColumns } from './targets.js'

const schema = newTableSchema({
  name: { type: 'string' },
  age: { type: 'number' },
  ok: { type: 'boolean' },
  at: { type: 'string', format: 'date-time' },
  tags: { type: 'array', items: { type: 'string' } },
  attrs: { type: 'object' },
})
const kindOf = queryColumns(tableColumns(schema, { name: 'c1', age: 'c2', ok: 'c3', at: 'c4', tags: 'c5', attrs: 'c6' }))
const parse = (filter: unknown) => parseFilter(filter, kindOf)

const name: ColumnTarget = { type: 'column', column: 'name', kind: 'string' }
const age: ColumnTarget = { type: 'column', column: 'age', kind: 'number' }
const tags: ColumnTarget = { type: 'column', column: 'tags', kind: 'array' }
const price: PathTarget = { type: 'path', column: 'attrs', path: ['price'] }

function message(filter: unknown): string {
  try {
    parse(filter)
  } catch (error) {
    if (error instanceof TablesStoreError && error.type === 'InvalidQuery' && error.code === 'INVALID_QUERY') return error.message
    throw error
  }
  throw new Error('expected an InvalidQuery error')
}

describe('parseFilter: valid filters', () => {
  it('reads a bare value as equality and several keys as AND', () => {
    expect(parse({ name: 'Ada', age: 36 })).toEqual({
      type: 'and',
      nodes: [
        { type: 'compare', target: name, op: 'eq', operand: { type: 'string', value: 'Ada' } },
        { type: 'compare', target: age, op: 'eq', operand: { type: 'number', value: 36 } },
      ],
    })
    expect(parse({})).toEqual({ type: 'all' })
  })

  it('types operands by the column: dates normalized to UTC, booleans, system columns', () => {
    expect(parse({ at: { $lt: '2026-02-01' } })).toEqual({
      type: 'compare', target: { type: 'column', column: 'at', kind: 'date' }, op: 'lt', operand: { type: 'date', value: '2026-02-01T00:00:00.000Z' },
    })
    expect(parse({ ok: false })).toEqual({ type: 'compare', target: { type: 'column', column: 'ok', kind: 'boolean' }, op: 'eq', operand: { type: 'boolean', value: false } })
    expect(parse({ createdAt: { $gte: '2026-01-01T10:00:00+02:00' } })).toMatchObject({ target: { column: 'createdAt', kind: 'date' }, operand: { value: '2026-01-01T08:00:00.000Z' } })
    expect(parse({ id: { $in: [1, 2] } })).toEqual({ type: 'in', target: { type: 'column', column: 'id', kind: 'number' }, operands: [{ type: 'number', value: 1 }, { type: 'number', value: 2 }] })
    expect(parse({ attrs: {} })).toEqual({ type: 'compare', target: { type: 'column', column: 'attrs', kind: 'object' }, op: 'eq', operand: { type: 'object', value: {} } })
  })

  it('turns null, $exists, $ne and $nin into exists and not nodes', () => {
    expect(parse({ name: null })).toEqual({ type: 'exists', target: name, exists: false })
    expect(parse({ name: { $exists: true } })).toEqual({ type: 'exists', target: name, exists: true })
    expect(parse({ name: { $ne: 'Ada' } })).toEqual({ type: 'not', node: { type: 'compare', target: name, op: 'eq', operand: { type: 'string', value: 'Ada' } } })
    expect(parse({ name: { $nin: ['a', null] } })).toEqual({
      type: 'not',
      node: { type: 'or', nodes: [{ type: 'in', target: name, operands: [{ type: 'string', value: 'a' }] }, { type: 'exists', target: name, exists: false }] },
    })
    expect(parse({ name: { $in: [null] } })).toEqual({ type: 'exists', target: name, exists: false })
  })

  it('matches scalars against array elements, and whole arrays by value', () => {
    expect(parse({ tags: 'x' })).toEqual({ type: 'contains', target: tags, operands: [{ type: 'string', value: 'x' }] })
    expect(parse({ tags: { $in: ['x', 2, true] } })).toEqual({
      type: 'contains', target: tags, operands: [{ type: 'string', value: 'x' }, { type: 'number', value: 2 }, { type: 'boolean', value: true }],
    })
    expect(parse({ tags: ['x', 'y'] })).toEqual({ type: 'compare', target: tags, op: 'eq', operand: { type: 'array', value: ['x', 'y'] } })
    expect(parse({ tags: { $size: 2 } })).toEqual({ type: 'size', target: tags, size: 2 })
  })

  it('keeps $mod, $regex with its options, and $not conditions', () => {
    expect(parse({ age: { $mod: [3, -1] } })).toEqual({ type: 'mod', target: age, divisor: 3, remainder: -1 })
    expect(parse({ name: { $options: 'i', $regex: '^a' } })).toEqual({ type: 'regex', target: name, pattern: '^a', flags: 'i', path: 'filter.name.$regex' })
    expect(parse({ age: { $not: { $gt: 40 } } })).toEqual({ type: 'not', node: { type: 'compare', target: age, op: 'gt', operand: { type: 'number', value: 40 } } })
    expect(parse({ age: { $gte: 1, $lt: 9 } })).toEqual({
      type: 'and',
      nodes: [
        { type: 'compare', target: age, op: 'gte', operand: { type: 'number', value: 1 } },
        { type: 'compare', target: age, op: 'lt', operand: { type: 'number', value: 9 } },
      ],
    })
  })

  it('nests $and, $or and a top-level $not, unwrapping single-element lists', () => {
    const eqAda: FilterNode = { type: 'compare', target: name, op: 'eq', operand: { type: 'string', value: 'Ada' } }
    expect(parse({ $or: [{ name: 'Ada' }, { age: { $lt: 0 } }] })).toEqual({
      type: 'or', nodes: [eqAda, { type: 'compare', target: age, op: 'lt', operand: { type: 'number', value: 0 } }],
    })
    expect(parse({ $and: [{ name: 'Ada' }] })).toEqual(eqAda)
    expect(parse({ $not: { name: 'Ada' } })).toEqual({ type: 'not', node: eqAda })
  })

  it('reads dot paths into object columns with JSON-typed operands', () => {
    expect(parse({ 'attrs.price': { $gte: 10 } })).toEqual({ type: 'compare', target: price, op: 'gte', operand: { type: 'number', value: 10 } })
    expect(parse({ 'attrs.price': true })).toEqual({ type: 'compare', target: price, op: 'eq', operand: { type: 'boolean', value: true } })
    expect(parse({ 'attrs.a.b': null })).toEqual({ type: 'exists', target: { type: 'path', column: 'attrs', path: ['a', 'b'] }, exists: false })
    expect(parse({ 'attrs.price': { $in: ['10', null] } })).toEqual({
      type: 'or', nodes: [{ type: 'compare', target: price, op: 'eq', operand: { type: 'string', value: '10' } }, { type: 'exists', target: price, exists: false }],
    })
    expect(parse({ 'attrs.price': { $not: 5 } })).toEqual({ type: 'not', node: { type: 'compare', target: price, op: 'eq', operand: { type: 'number', value: 5 } } })
  })
})

describe('parseFilter: refused filters, with the path in the message', () => {
  it('refuses unknown columns and operators', () => {
    expect(message({ nope: 1 })).toBe('filter.nope: unknown column "nope"')
    expect(message({ 'name.first': 'x' })).toBe('filter.name.first: unknown column "name.first"')
    expect(message({ age: { $between: [1, 2] } })).toBe('filter.age.$between: unknown operator "$between"')
    expect(message({ $nor: [{ age: 1 }] })).toBe('filter.$nor: unknown operator "$nor"')
    expect(message({ $or: [{ age: 1 }, { nope: 2 }] })).toBe('filter.$or.1.nope: unknown column "nope"')
    expect(message({ 'attrs.price': { $near: 1 } })).toBe('filter.attrs.price.$near: unknown operator "$near"')
    expect(message({ 'attrs.a"b': 1 })).toBe('filter.attrs.a"b: invalid path segment "a\\"b"')
  })

  it('refuses operands of the wrong type', () => {
    expect(message({ age: { $gt: '5' } })).toBe('filter.age.$gt: expected a number, received "5"')
    expect(message({ at: { $lt: 'yesterday' } })).toBe('filter.at.$lt: expected an ISO 8601 date or date-time string, received "yesterday"')
    expect(message({ ok: 'yes' })).toBe('filter.ok: expected a boolean, received "yes"')
    expect(message({ tags: { $in: ['a', null, {}] } })).toBe('filter.tags.$in.1: expected a string, number or boolean element, received object')
    expect(message({ 'attrs.price': { $gt: true } })).toBe('filter.attrs.price.$gt: expected a string or a number, received boolean (true)')
    expect(message({ age: { $exists: 1 } })).toBe('filter.age.$exists: expected a boolean, received number (1)')
    expect(message({ age: { $not: 3 } })).toBe('filter.age.$not: expected an operator object, received number (3)')
    expect(message('age > 3')).toBe('filter: expected an object, received "age > 3"')
  })

  it('refuses operators that do not apply to the column', () => {
    expect(message({ ok: { $gt: true } })).toBe('filter.ok.$gt: "$gt" does not apply to a boolean column')
    expect(message({ name: { $mod: [2, 0] } })).toBe('filter.name.$mod: "$mod" applies to number columns, not string')
    expect(message({ age: { $size: 1 } })).toBe('filter.age.$size: "$size" applies to array columns, not number')
    expect(message({ age: { $regex: '1' } })).toBe('filter.age.$regex: "$regex" applies to string columns, not number')
  })

  it('refuses malformed operators and conditions', () => {
    expect(message({ age: { $in: [] } })).toBe('filter.age.$in: expected a non-empty array, received array (0 items)')
    expect(message({ $or: [] })).toBe('filter.$or: expected a non-empty array of filters, received array (0 items)')
    expect(message({ $not: [] })).toBe('filter.$not: expected a filter object, received array (0 items)')
    expect(message({ age: { $mod: [0, 1] } })).toBe('filter.age.$mod: divisor must not be 0')
    expect(message({ age: { $mod: [2.5, 1] } })).toBe('filter.age.$mod: expected [divisor, remainder] (two integers), received array (2 items)')
    expect(message({ 'attrs.price': { $mod: [0, 1] } })).toBe('filter.attrs.price.$mod: expected [divisor, remainder] (two integers, divisor not 0), received array (2 items)')
    expect(message({ name: { $regex: 'a', $options: 'g' } })).toBe('filter.name.$options: unsupported regex flag "g"; allowed: i, m, s, u')
    expect(message({ name: { $options: 'i' } })).toBe('filter.name.$options: "$options" needs a sibling "$regex"')
    expect(message({ age: {} })).toBe('filter.age: empty condition; give a value or at least one operator')
    expect(message({ age: { $not: {} } })).toBe('filter.age.$not: empty condition; give a value or at least one operator')
    expect(message({ age: { $not: { $gt: 1, x: 2 } } })).toBe('filter.age.$not: cannot mix operators and plain keys ("x")')
    expect(message({ 'attrs.price': { a: 1 } })).toBe('filter.attrs.price: nested paths compare scalar values; give a value or operators')
  })

  it('bounds $in lists, nesting depth and the number of values', () => {
    expect(message({ age: { $in: Array.from({ length: 1001 }, (_, i) => i) } })).toBe('filter.age.$in: at most 1000 values, received 1001')
    let deep: Record<string, unknown> = { age: 1 }
    for (let i = 0; i < 40; i++) deep = { $not: deep }
    expect(message(deep)).toMatch(/^filter(\.\$not)+: filters nest at most 16 levels deep$/)
    let condition: Record<string, unknown> = { $gt: 1 }
    for (let i = 0; i < 20; i++) condition = { $not: condition }
    expect(message({ age: condition })).toMatch(/: conditions nest at most 16 levels deep$/)
    expect(message({ 'attrs.price': condition })).toMatch(/^filter\.attrs\.price(\.\$not)+: conditions nest at most 16 levels deep$/)
    const wide = { $or: Array.from({ length: 6 }, () => ({ age: { $in: Array.from({ length: 1000 }, (_, i) => i) } })) }
    expect(message(wide)).toBe('filter: too large (6000 values; at most 5000)')
    const regexes = { $or: Array.from({ length: 1667 }, () => ({ name: { $regex: 'a' } })) }
    expect(message(regexes)).toBe('filter: too large (5001 values; at most 5000)')
  })

  it('compiles the $regex patterns once the filter is read, naming the path of a bad or too complex one', () => {
    expect(message({ age: 1, $or: [{ name: { $regex: 'ok' } }, { name: { $regex: '(a)\\1' } }] })).toMatch(
      /^filter\.\$or\.1\.name\.\$regex: invalid or unsupported regular expression "\(a\)\\\\1" .*RE2 syntax: no backreferences or lookarounds$/,
    )
    expect(message({ name: { $regex: '(.*a){1000}' } })).toBe(
      'filter.name.$regex: the pattern is too complex: it would compile to about 6000 instructions, at most 1000 are allowed; lower repetition counts such as {1000}',
    )
    expect(() => parseFilter({ name: { $regex: '(.*a){190}' } }, kindOf)).not.toThrow() // 952 instructions
    expect(message({ $or: [{ name: { $regex: '(.*a){150}' } }, { name: { $regex: '(.*a){60}' } }] })).toBe(
      'filter.$or.1.name.$regex: the pattern is too complex: the $regex patterns of this filter compile to 1054 instructions together, at most 1000 are allowed',
    )
  })

  it('bounds the terms of a filter: conditions and the operators combining them', () => {
    const or = (n: number) => ({ $or: Array.from({ length: n }, (_, i) => ({ age: i })) })
    expect(() => parseFilter(or(999), kindOf)).not.toThrow()
    expect(message(or(1000))).toBe('filter: too large (1001 conditions and operators; at most 1000); use $in for many values of one column')
    const nested = { $and: Array.from({ length: 400 }, () => ({ age: { $gt: 1, $lt: 9 } })) }
    expect(message(nested)).toBe('filter: too large (1201 conditions and operators; at most 1000); use $in for many values of one column')
  })
})
