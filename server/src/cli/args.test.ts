import { describe, expect, it } from 'vitest'
import { attachDashValues, parseCommandArgs } from './args.js'

describe('attachDashValues', () => {
  const options = { port: { type: 'string' as const }, filter: { type: 'string' as const, short: 'f' }, json: { type: 'boolean' as const } }

  it('joins a string option to a negative number or a lone dash', () => {
    expect(attachDashValues(['--port', '-1', '--json'], options)).toEqual(['--port=-1', '--json'])
    expect(attachDashValues(['-f', '-', 'x'], options)).toEqual(['-f-', 'x'])
  })

  it('leaves options, boolean flags and everything after -- alone', () => {
    expect(attachDashValues(['--port', '--json'], options)).toEqual(['--port', '--json'])
    expect(attachDashValues(['--json', '-1'], options)).toEqual(['--json', '-1'])
    expect(attachDashValues(['--', '--port', '-1'], options)).toEqual(['--', '--port', '-1'])
  })

  it('lets parseArgs read the value so that it is checked like any other', () => {
    expect(parseCommandArgs(['--port', '-1'], { port: { type: 'string' } }, 'serve').values.port).toBe('-1')
  })
})
