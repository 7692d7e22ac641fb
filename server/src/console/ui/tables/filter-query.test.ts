import { describe, expect, it } from 'vitest'
import { buildFilter, parseRawFilter } from './filter-query.js'

const kinds = { name: 'string', age: 'number', active: 'boolean', joined: 'date', meta: 'object' } as const

describe('buildFilter', () => {
  it('writes no filter for no condition, a bare term for one, and $and for several', () => {
    expect(buildFilter([], kinds)).toEqual({ ok: true, filter: undefined })
    expect(buildFilter([{ column: 'age', op: '$gt', value: '30' }], kinds)).toEqual({ ok: true, filter: { age: { $gt: 30 } } })
    expect(
      buildFilter(
        [
          { column: 'name', op: '$eq', value: 'Ada' },
          { column: 'active', op: '$eq', value: 'true' },
        ],
        kinds,
      ),
    ).toEqual({ ok: true, filter: { $and: [{ name: { $eq: 'Ada' } }, { active: { $eq: true } }] } })
  })

  it('types operands by column: numbers, booleans, lists, null, patterns, $exists, dates as strings', () => {
    expect(buildFilter([{ column: 'age', op: '$in', value: '1, 2,3' }], kinds)).toEqual({ ok: true, filter: { age: { $in: [1, 2, 3] } } })
    expect(buildFilter([{ column: 'name', op: '$nin', value: 'a,null' }], kinds)).toEqual({ ok: true, filter: { name: { $nin: ['a', null] } } })
    expect(buildFilter([{ column: 'name', op: '$regex', value: '^A.*' }], kinds)).toEqual({ ok: true, filter: { name: { $regex: '^A.*' } } })
    expect(buildFilter([{ column: 'name', op: '$exists', value: 'false' }], kinds)).toEqual({ ok: true, filter: { name: { $exists: false } } })
    expect(buildFilter([{ column: 'joined', op: '$gte', value: '2026-01-01' }], kinds)).toEqual({ ok: true, filter: { joined: { $gte: '2026-01-01' } } })
    expect(buildFilter([{ column: 'meta', op: '$eq', value: '{"a":1}' }], kinds)).toEqual({ ok: true, filter: { meta: { $eq: { a: 1 } } } })
    expect(buildFilter([{ column: 'age', op: '$ne', value: 'null' }], kinds)).toEqual({ ok: true, filter: { age: { $ne: null } } })
  })

  it('names the condition whose operand does not read as its column type', () => {
    expect(buildFilter([{ column: 'age', op: '$gt', value: 'old' }], kinds)).toEqual({ ok: false, error: 'condition 1 (age): expected a number, received "old"' })
    const second = buildFilter(
      [
        { column: 'age', op: '$gt', value: '1' },
        { column: 'active', op: '$eq', value: 'yes' },
      ],
      kinds,
    )
    expect(second).toEqual({ ok: false, error: 'condition 2 (active): expected true or false, received "yes"' })
    expect(buildFilter([{ column: 'age', op: '$in', value: ' , ' }], kinds)).toMatchObject({ ok: false, error: expect.stringContaining('at least one value') })
    expect(buildFilter([{ column: '', op: '$eq', value: 'x' }], kinds)).toMatchObject({ ok: false, error: expect.stringContaining('choose a column') })
  })
})

describe('parseRawFilter', () => {
  it('reads an object, nothing for blank text, and refuses other JSON with the reason', () => {
    expect(parseRawFilter('  ')).toEqual({ ok: true, filter: undefined })
    expect(parseRawFilter('{"$or":[{"a":1},{"b":2}]}')).toEqual({ ok: true, filter: { $or: [{ a: 1 }, { b: 2 }] } })
    expect(parseRawFilter('[1]')).toEqual({ ok: false, error: 'filter: expected a JSON object, received an array' })
    expect(parseRawFilter('{nope')).toMatchObject({ ok: false, error: expect.stringMatching(/^filter: not valid JSON/) })
  })
})
