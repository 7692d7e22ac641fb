import { describe, expect, it } from 'vitest'
import { backgroundOptions, JOB_LEASE_SETTING, parseSecondsSetting } from './background-options.js'
import { UsageError } from './io.js'

describe('the background-job settings of serve', () => {
  it('reads seconds from the flag, else from the variable, in milliseconds', () => {
    expect(backgroundOptions({ 'job-lease': '5' }, { BOTSHELF_EXPIRY_SWEEP: '10' })).toEqual({ jobLeaseMs: 5000, expirySweepIntervalMs: 10_000 })
    expect(backgroundOptions({}, { BOTSHELF_JOB_LEASE: '2.5' })).toEqual({ jobLeaseMs: 2500 })
    expect(backgroundOptions({ 'job-lease': '0.5', 'expiry-sweep': '1' }, { BOTSHELF_JOB_LEASE: '60', BOTSHELF_EXPIRY_SWEEP: '600' })).toEqual({ jobLeaseMs: 500, expirySweepIntervalMs: 1000 })
  })

  it('leaves the defaults when neither is set (or a variable is empty)', () => {
    expect(backgroundOptions({}, {})).toEqual({})
    expect(backgroundOptions({}, { BOTSHELF_JOB_LEASE: '', BOTSHELF_EXPIRY_SWEEP: ' ' })).toEqual({})
  })

  it('refuses values out of range or not a number, naming where they came from', () => {
    expect(() => parseSecondsSetting(JOB_LEASE_SETTING, { 'job-lease': 'soon' }, {})).toThrow(UsageError)
    expect(() => backgroundOptions({ 'job-lease': 'soon' }, {})).toThrow('--job-lease must be a number of seconds from 0.5 to 3600 (like 30 or 2.5), received "soon"')
    expect(() => backgroundOptions({ 'job-lease': '0.1' }, {})).toThrow('received "0.1"')
    expect(() => backgroundOptions({ 'job-lease': '' }, {})).toThrow('--job-lease')
    expect(() => backgroundOptions({}, { BOTSHELF_JOB_LEASE: '7200' })).toThrow('BOTSHELF_JOB_LEASE must be a number of seconds')
    expect(() => backgroundOptions({ 'expiry-sweep': '0.5' }, {})).toThrow('--expiry-sweep must be a number of seconds from 1 to 86400 (like 60 or 2.5), received "0.5"')
  })
})
