import { describe, expect, it } from 'vitest'
import { parseFilter, queryColumns } from '../../tables/filter/index.js'
import { newTableSchema } from '../../tables/table-schema.js'
import { tableColumns } from '../../tables/table-columns.js'
import { compileFilterSql, hasRegex, regexConditions, type RegexNode } from './filter-sql.js'
import { SqlParams } from './params.js'
import { columnSqlOf } from './runtime.js'

const schema = newTableSchema({ name: { type: 'string' }, status: { type: 'string' }, age: { type: 'number' }, meta: { type: 'object' } })
const rt = { physical: 'ut_x', ...tableColumns(schema, { name: 'c1', status: 'c2', age: 'c3', meta: 'c4' }) }
const parse = (filter: Record<string, unknown>) => parseFilter(filter, queryColumns(rt))

describe('regexConditions', () => {
  it('pairs each $regex with the regex-free conditions ANDed with it up the tree, through $or and $not', () => {
    const filter = parse({ status: 'open', $or: [{ name: { $regex: '^a' } }, { age: 3 }], $not: { age: { $gt: 1 }, name: { $regex: 'b' } } })
    const found = regexConditions(filter).map(({ node, context }) => ({
      pattern: node.pattern,
      context: context.map((c) => compileFilterSql(c, columnSqlOf(rt, 't'), new SqlParams())),
    }))
    expect(found).toEqual([
      // The $or sibling `age = 3` does not restrict which names matter; `status = open` does.
      { pattern: '^a', context: ['(t."c2" IS NOT NULL AND t."c2" = $1::text)'] },
      { pattern: 'b', context: ['(t."c2" IS NOT NULL AND t."c2" = $1::text)', '(t."c3" IS NOT NULL AND t."c3" > $1::float8)'] },
    ])
    expect(hasRegex(filter)).toBe(true)
    expect(hasRegex(parse({ age: 1 }))).toBe(false)
  })
})

describe('compileFilterSql', () => {
  it('turns a $regex into membership in the values it matched, and refuses one it has no values for', () => {
    const filter = parse({ 'meta.code': { $regex: '^x' } })
    const node = regexConditions(filter)[0]!.node as RegexNode
    const params = new SqlParams()
    const sql = compileFilterSql(filter, columnSqlOf(rt, 't'), params, new Map([[node, ['xa', 'xb']]]))
    expect(sql).toBe(`(coalesce(json_typeof((t."c4" -> $1::text)), 'null') = 'string' AND (t."c4" ->> $1::text) = ANY($2::text[]))`)
    expect(params.values).toEqual(['code', ['xa', 'xb']])
    expect(() => compileFilterSql(filter, columnSqlOf(rt, 't'), new SqlParams())).toThrow('No values were matched for the $regex at filter.meta.code.$regex')
  })

  it('never inlines a value, path key or id', () => {
    const params = new SqlParams()
    const sql = compileFilterSql(parse({ "meta.it's": "'; DROP TABLE x; --", id: { $in: [1, 2] }, age: { $mod: [3, 1] } }), columnSqlOf(rt, 't'), params)
    expect(sql).not.toContain('DROP')
    expect(sql).not.toContain("it's")
    expect(params.values).toEqual(["it's", "'; DROP TABLE x; --", 1, 2, '3', 1])
  })
})
