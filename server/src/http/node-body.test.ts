import { PassThrough } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { readBodyText } from './body.js'
import { attachNodeBody, DROP_REST_TIMEOUT_MS, GuardedNodeBody, guardBody, untouchedNodeBody } from './node-body.js'

class Late extends Error {}
const late = (): Error => new Late('the body did not arrive in time')

describe('GuardedNodeBody', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('gathers the whole body and stops its deadline when it ends', async () => {
    const incoming = new PassThrough()
    const guard = new GuardedNodeBody(incoming, 1_000, late)
    const reading = guard.readAll()
    incoming.write('{"key":')
    incoming.end('"a"}')
    expect((await reading).toString()).toBe('{"key":"a"}')
    expect(guard).toMatchObject({ received: 11, complete: true, timedOut: false, started: true })
    vi.advanceTimersByTime(5_000)
    expect(guard.timedOut).toBe(false)
  })

  it('fails a read still waiting at the deadline with its error, pausing the stream without destroying it', async () => {
    const incoming = new PassThrough()
    const guard = new GuardedNodeBody(incoming, 1_000, late)
    const reading = guard.readAll().catch((error: unknown) => error)
    incoming.write('{"ke')
    await vi.advanceTimersByTimeAsync(1_000)
    expect(await reading).toBeInstanceOf(Late)
    expect(guard).toMatchObject({ received: 4, complete: false, timedOut: true })
    expect(incoming.destroyed).toBe(false)
    expect(incoming.isPaused()).toBe(true)
    // A read after the deadline fails at once.
    expect(await guard.readAll().catch((error: unknown) => error)).toBeInstanceOf(Late)
  })

  it('fails when the connection closes before the body ended, and when the stream errors', async () => {
    const closed = new PassThrough()
    const guard = new GuardedNodeBody(closed, 1_000, late)
    const reading = guard.readAll().catch((error: unknown) => error)
    closed.write('ab')
    closed.destroy()
    expect(await reading).toMatchObject({ message: 'aborted' })
    const failing = new PassThrough()
    const failed = new GuardedNodeBody(failing, 1_000, late).readAll().catch((error: unknown) => error)
    failing.destroy(new Error('reset'))
    expect(await failed).toMatchObject({ message: 'reset' })
  })

  it('drops a body nobody read up to a bound, then leaves the rest unread', async () => {
    const small = new PassThrough()
    const dropping = new GuardedNodeBody(small, 1_000, late).dropRest(10)
    small.end('12345')
    await dropping
    expect(small.readableEnded).toBe(true)
    const large = new PassThrough()
    const bounded = new GuardedNodeBody(large, 1_000, late).dropRest(3)
    large.write('12345')
    await bounded
    expect(large.isPaused()).toBe(true)
    expect(large.listenerCount('data')).toBe(0)
    const silent = new PassThrough()
    const waiting = new GuardedNodeBody(silent, 60_000, late).dropRest(10)
    await vi.advanceTimersByTimeAsync(DROP_REST_TIMEOUT_MS)
    await waiting
    expect(silent.listenerCount('data')).toBe(0)
  })
})

describe('node bodies of requests', () => {
  it('are untouched until something reads them', () => {
    const request = new Request('http://x/', { method: 'PUT', body: 'x' })
    const incoming = new PassThrough()
    expect(untouchedNodeBody(request)).toBeUndefined()
    attachNodeBody(request, incoming)
    expect(untouchedNodeBody(request)).toBe(incoming)
    incoming.on('data', () => undefined)
    expect(untouchedNodeBody(request)).toBeUndefined()
  })

  it('readBodyBytes reads a guarded body from its stream, and a broken one is a 400 naming the bytes received', async () => {
    const request = new Request('http://x/', { method: 'PUT', body: 'not this one' })
    const incoming = new PassThrough()
    guardBody(request, new GuardedNodeBody(incoming, 60_000, late))
    incoming.end('{"key":"a"}')
    expect(await readBodyText(request, 100)).toBe('{"key":"a"}')
    const broken = new Request('http://x/', { method: 'PUT', body: 'not this one' })
    const cut = new PassThrough()
    guardBody(broken, new GuardedNodeBody(cut, 60_000, late))
    const reading = readBodyText(broken, 100).catch((error: unknown) => error)
    cut.write('{"ke')
    cut.destroy()
    expect(await reading).toMatchObject({ type: 'InvalidPayload', message: expect.stringMatching(/broke off after 4 bytes \(aborted\)/) })
  })
})
