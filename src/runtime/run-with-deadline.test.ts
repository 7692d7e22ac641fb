import { describe, expect, it } from 'vitest'
import { DeadlineExceeded, runWithDeadline } from './run-with-deadline.js'

describe('runWithDeadline', () => {
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
    let seen: AbortSignal | undefined
    const outcome = await runWithDeadline((deadline) => {
      seen = deadline.signal
      return new Promise<never>(() => undefined)
    }, 20)
    expect(outcome.status).toBe('timeout')
    expect(seen?.aborted).toBe(true)
    expect(seen?.reason).toBeInstanceOf(DeadlineExceeded)
  })

  it('makes the signal on first read; one first read after the deadline is already aborted', async () => {
    let late: AbortSignal | undefined
    const outcome = await runWithDeadline(
      (deadline) =>
        new Promise<void>((resolve) => {
          setTimeout(() => {
            late = deadline.signal
            resolve()
          }, 40)
        }),
      10,
    )
    expect(outcome.status).toBe('timeout')
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(late?.aborted).toBe(true)
    expect(late?.reason).toBeInstanceOf(DeadlineExceeded)
  })

  it('reports a rejected promise as an error and a resolved one as ok, with thenables adopted', async () => {
    expect(await runWithDeadline(async () => Promise.reject(new Error('late')), 1000)).toMatchObject({ status: 'error' })
    const thenable = { then: (resolve: (value: string) => void) => resolve('adopted') }
    expect(await runWithDeadline(() => thenable as unknown as Promise<string>, 1000)).toMatchObject({ status: 'ok', value: 'adopted' })
  })
})
