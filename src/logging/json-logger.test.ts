import { describe, expect, it } from 'vitest'
import { createJsonLogger } from './json-logger.js'

describe('createJsonLogger', () => {
  it('writes one JSON line per call with bindings, honouring the level', () => {
    const lines: string[] = []
    const logger = createJsonLogger({ write: (l) => lines.push(l), level: 'info', now: () => new Date('2024-01-01T00:00:00Z') })
    const bound = logger.child({ eventId: 'e1' }).child({ hook: 'h' })
    bound.debug('hidden')
    bound.warn('careful', { level: 'spoofed', n: 2, error: new Error('x') })
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0]!)).toEqual({
      level: 'warn',
      time: '2024-01-01T00:00:00.000Z',
      msg: 'careful',
      eventId: 'e1',
      hook: 'h',
      n: 2,
      error: { name: 'Error', message: 'x' },
    })
  })

  it('survives unserializable fields', () => {
    const lines: string[] = []
    const cyclic: Record<string, unknown> = {}
    cyclic['self'] = cyclic
    createJsonLogger({ write: (l) => lines.push(l) }).error('oops', { cyclic })
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'oops', logError: 'unserializable fields' })
  })
})
