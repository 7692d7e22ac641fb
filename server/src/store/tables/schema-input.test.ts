import { describe, expect, it } from 'vitest'
import { checkColumnName, detectSchemaForm, readColumnDefinition, readSchemaInput } from './schema-input.js'

describe('detectSchemaForm', () => {
  it('recognises a JSON schema by its properties object', () => {
    expect(detectSchemaForm({ type: 'object', properties: { a: { type: 'string' } } })).toBe('json-schema')
    expect(detectSchemaForm({ properties: { a: { type: 'string' } }, required: [] })).toBe('json-schema')
  })

  it('recognises a column map by JSON types or x-zui', () => {
    expect(detectSchemaForm({ a: { type: 'string' }, b: { type: ['number', 'null'] } })).toBe('column-map')
    expect(detectSchemaForm({ a: { 'x-zui': { searchable: true }, type: 'string' } })).toBe('column-map')
    expect(detectSchemaForm({ gone: null })).toBe('column-map')
  })

  it('falls back to an example object otherwise', () => {
    expect(detectSchemaForm({ a: 'x', b: 1 })).toBe('example')
    expect(detectSchemaForm({ pet: { type: 'dog' } })).toBe('example')
    expect(detectSchemaForm({ type: 'string', properties: 'x' })).toBe('example')
    expect(detectSchemaForm({})).toBe('example')
  })
})

describe('readColumnDefinition', () => {
  it('keeps wire keys, drops others, maps integer and nullable unions', () => {
    expect(readColumnDefinition({ type: 'integer', minimum: 1, description: 'n' }, 'c')).toEqual({ type: 'number', minimum: 1, description: 'n', 'x-zui': {} })
    expect(readColumnDefinition({ type: 'number', maximum: 5, default: 3, title: 'Stars', 'x-zui': { index: 9, title: 'Stars', placeholder: 'n' } }, 'c')).toEqual({
      type: 'number',
      maximum: 5,
      default: 3,
      title: 'Stars',
      'x-zui': { title: 'Stars', placeholder: 'n' },
    })
    expect(() => readColumnDefinition({ type: 'number', minimum: 'one' }, 'schema.n')).toThrow('schema.n.minimum: expected a finite number, received "one"')
    expect(readColumnDefinition({ type: 'string', format: 'email' }, 'c')).toEqual({ type: 'string', 'x-zui': {} })
    expect(readColumnDefinition({ type: ['string', 'null'], enum: ['a'] }, 'c')).toEqual({ type: 'string', nullable: true, enum: ['a'], 'x-zui': {} })
    expect(readColumnDefinition({ type: 'null' }, 'c')).toBeNull()
  })

  it('refuses bad patterns, enums and computed actions, naming the path', () => {
    expect(() => readColumnDefinition({ type: 'string', pattern: '(' }, 'schema.a')).toThrow('schema.a.pattern')
    expect(() => readColumnDefinition({ type: 'string', pattern: '(.*a){1000}' }, 'schema.a')).toThrow(
      'schema.a.pattern: the pattern is too complex: it would compile to about 6000 instructions, at most 1000 are allowed',
    )
    expect(() => readColumnDefinition({ type: 'string', enum: [1] }, 'schema.a')).toThrow('schema.a.enum')
    expect(() => readColumnDefinition({ type: 'string', 'x-zui': { computed: { action: 'magic' } } }, 'schema.a')).toThrow('schema.a.x-zui.computed.action')
  })
})

describe('readSchemaInput', () => {
  it('lists removals separately and keeps required', () => {
    const input = readSchemaInput({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'null' } }, required: ['a', 'a'] })
    expect(input.columns.map((c) => c.name)).toEqual(['a'])
    expect(input.removed).toEqual(['b'])
    expect(input.required).toEqual(['a'])
  })

  it('refuses a null example value with a clear message', () => {
    expect(() => readSchemaInput({ a: 'x', b: null, c: 1 })).toThrow('schema.b: cannot infer a column type from null')
  })

  it('refuses a schema nested past 64 levels, naming the path', () => {
    let deep: unknown = { type: 'string' }
    for (let i = 0; i < 5000; i++) deep = { type: 'object', properties: { a: deep } }
    expect(() => readSchemaInput({ type: 'object', properties: { o: deep } })).toThrow(
      'schema.properties.o.properties.a.properties.a.properties…: expected at most 64 levels of nesting, received more',
    )
  })

  it('refuses "__proto__" as a column name, and keeps other prototype names', () => {
    expect(() => readSchemaInput(JSON.parse('{"__proto__":{"type":"string"}}'))).toThrow('schema.__proto__: expected a key other than "__proto__"')
    expect(() => checkColumnName('__proto__', 'newName')).toThrow(/^newName: column name "__proto__" is not allowed/)
    expect(readSchemaInput({ constructor: { type: 'string' }, toString: 'x' }).columns.map((c) => c.name)).toEqual(['constructor', 'toString'])
  })
})
