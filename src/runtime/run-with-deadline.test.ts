import { afterEach, describe, expect, it, vi } from 'vitest'
import { DeadlineExceeded, runWithDeadline } from './run-with-deadline.js'

describe('runWithDeadline', () => {
  // The deadline is a timer: fake ones drive it (and are put back after each test, the worker runs other files).
  afterEach(() => {
    vi.useRealTimers()
  })

  it('reports a synchronous value and a synchronous throw without waiting for any timer', async () => {
    expect(await runWithDeadline(() => 42, 10)).toMatchObject({ status: 'ok', value: 42 })
    const failure = new Error('boom')
    expect(
      await runWithDeadline(() => {
        throw failure
      }, 10),
    ).toMatchObject({ status: 'error', error: failure })
  })

  it('arms the deadline when the handler answers a promise, and aborts the signal', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
    let seen: AbortSignal | undefined
    let settled = false
    const running = runWithDeadline((deadline) => {
      seen = deadline.signal
      return new Promise<never>(() => undefined)
    }, 20).finally(() => (settled = true))
    await vi.advanceTimersByTimeAsync(19)
    expect(settled).toBe(false)
    expect(seen?.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    const outcome = await running
    expect(outcome.status).toBe('timeout')
    expect(seen?.aborted).toBe(true)
    expect(seen?.reason).toBeInstanceOf(DeadlineExceeded)
  })

  it('makes the signal on first read; one first read after the deadline is already aborted', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
    let late: AbortSignal | undefined
    const running = runWithDeadline(
      (deadline) =>
        new Promise<void>((resolve) => {
          setTimeout(() => {
            late = deadline.signal
            resolve()
          }, 40)
        }),
      10,
    )
    await vi.advanceTimersByTimeAsync(10)
    expect((await running).status).toBe('timeout')
    expect(late).toBeUndefined()
    await vi.advanceTimersByTimeAsync(30)
    expect(late?.aborted).toBe(true)
    expect(late?.reason).toBeInstanceOf(DeadlineExceeded)
  })

  it('reports a rejected promise as an error and a resolved one as ok, with thenables adopted', async () => {
    expect(await runWithDeadline(async () => Promise.reject(new Error('late')), 1000)).toMatchObject({ status: 'error' })
    const thenable = { then: (resolve: (value: string) => void) => resolve('adopted') }
    expect(await runWithDeadline(() => thenable as unknown as Promise<string>, 1000)).toMatchObject({ status: 'ok', value: 'adopted' })
  })
})
