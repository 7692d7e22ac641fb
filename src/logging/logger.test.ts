import { describe, expect, it } from 'vitest'
import { passesThreshold, parseLogThreshold } from './log-level.js'
import { toLogger, type LogFields, type Logger } from './logger.js'
import { createRecordLogger, silentLogger, type LogRecord } from './record-logger.js'
import { withLogThreshold } from './threshold-logger.js'

const fixed = () => new Date('2024-01-01T00:00:00Z')

describe('toLogger', () => {
  it('completes a log-only logger: level methods, and children that merge their bindings into the fields', () => {
    const lines: Array<Record<string, unknown>> = []
    const logger = toLogger({ log: (level, msg, fields) => lines.push({ level, msg, ...fields }) })
    logger.info('hello')
    logger.child({ jobId: 'job_1' }).child({ attempt: 2 }).log('warn', 'retrying', { waitMs: 10 })
    expect(lines).toEqual([
      { level: 'info', msg: 'hello' },
      { level: 'warn', msg: 'retrying', jobId: 'job_1', attempt: 2, waitMs: 10 },
    ])
  })

  it('hands the fields of a log-only logger through unchanged when there are no bindings', () => {
    const seen: Array<LogFields | undefined> = []
    const fields = { status: 200 }
    toLogger({ log: (_level, _msg, given) => void seen.push(given) }).log('info', 'request', fields)
    expect(seen[0]).toBe(fields)
  })

  it('completes a level-only logger (the runtime shape) with log, children included', () => {
    const calls: string[] = []
    const levelOnly = {
      debug: (m: string) => void calls.push(`debug ${m}`),
      info: (m: string) => void calls.push(`info ${m}`),
      warn: (m: string) => void calls.push(`warn ${m}`),
      error: (m: string) => void calls.push(`error ${m}`),
      child: () => levelOnly,
    }
    const logger = toLogger(levelOnly)
    logger.log('error', 'boom')
    logger.child({ a: 1 }).log('debug', 'detail')
    expect(calls).toEqual(['error boom', 'debug detail'])
  })

  it('gives back a whole logger as it is', () => {
    const whole: Logger = createRecordLogger(() => {})
    expect(toLogger(whole)).toBe(whole)
    expect(toLogger(silentLogger)).toBe(silentLogger)
  })
})

describe('createRecordLogger', () => {
  it('builds records time, level, msg first; bindings and fields cannot overwrite them', () => {
    const records: LogRecord[] = []
    createRecordLogger((record) => records.push(record), fixed)
      .child({ hook: 'tag' })
      .log('info', 'done', { msg: 'spoofed', n: 1 })
    expect(Object.keys(records[0]!)).toEqual(['time', 'level', 'msg', 'hook', 'n'])
    expect(records[0]).toEqual({ time: '2024-01-01T00:00:00.000Z', level: 'info', msg: 'done', hook: 'tag', n: 1 })
  })
})

describe('log levels', () => {
  it('ranks the levels against a threshold, silent letting nothing through', () => {
    expect(passesThreshold('info', 'info')).toBe(true)
    expect(passesThreshold('info', 'warn')).toBe(false)
    expect(passesThreshold('error', 'silent')).toBe(false)
    expect(parseLogThreshold(' Debug ')).toBe('debug')
    expect(parseLogThreshold('loud')).toBeUndefined()
  })

  it('withLogThreshold drops the lines under the threshold, through log, the level methods and children', () => {
    const lines: string[] = []
    const logger = withLogThreshold({ log: (level, msg) => void lines.push(`${level} ${msg}`) }, 'warn')
    logger.info('dropped')
    logger.log('debug', 'dropped')
    logger.warn('kept')
    logger.child({ a: 1 }).log('error', 'kept too')
    logger.child({ a: 1 }).info('dropped')
    expect(lines).toEqual(['warn kept', 'error kept too'])
  })
})
