import { describe, expect, expectTypeOf, it } from 'vitest'
import { asyncPort, type Promisified } from './async-port.js'

class Counter {
  readonly label = 'counter'
  #count = 0
  calls: string[] = []

  add(by: number): number {
    this.calls.push(`add ${by}`)
    this.#count += by
    return this.#count
  }

  explode(message: string): never {
    throw new Error(message)
  }

  later(): Promise<string> {
    return Promise.resolve('done')
  }
}

const methods = ['add', 'explode', 'later'] as const

describe('asyncPort', () => {
  it('calls the store method with its own this and resolves with its result', async () => {
    const counter = new Counter()
    const port = asyncPort(counter, methods)
    await expect(port.add(2)).resolves.toBe(2)
    await expect(port.add(3)).resolves.toBe(5)
    // The private field was reached: the method ran bound to the store.
    expect(counter.calls).toEqual(['add 2', 'add 3'])
  })

  it('runs the store in the same tick when before is synchronous', () => {
    const counter = new Counter()
    const order: string[] = []
    const port = asyncPort(counter, methods, () => {
      order.push('before')
    })
    void port.add(1)
    // Nothing awaited yet: a synchronous before must not delay the store call.
    expect(order).toEqual(['before'])
    expect(counter.calls).toEqual(['add 1'])
  })

  it('turns a thrown error into a rejected promise', async () => {
    const port = asyncPort(new Counter(), methods)
    let returned: Promise<never> | undefined
    expect(() => {
      returned = port.explode('boom')
    }).not.toThrow()
    await expect(returned).rejects.toThrow('boom')
  })

  it('waits for an asynchronous before, and does not call the store when it rejects', async () => {
    const counter = new Counter()
    let open!: () => void
    const ready = new Promise<void>((resolve) => (open = resolve))
    const port = asyncPort(counter, methods, () => ready)
    const pending = port.add(4)
    await Promise.resolve()
    expect(counter.calls).toEqual([])
    open()
    await expect(pending).resolves.toBe(4)

    const closed = asyncPort(counter, methods, () => Promise.reject(new Error('store closed')))
    await expect(closed.add(1)).rejects.toThrow('store closed')
    expect(counter.calls).toEqual(['add 4'])
  })

  it('rejects when a synchronous before throws', async () => {
    const counter = new Counter()
    const port = asyncPort(counter, methods, () => {
      throw new Error('not migrated')
    })
    await expect(port.add(1)).rejects.toThrow('not migrated')
    expect(counter.calls).toEqual([])
  })

  it('does not nest a promise a method returns', async () => {
    const port = asyncPort(new Counter(), methods)
    await expect(port.later()).resolves.toBe('done')
    expectTypeOf(port.later).returns.toEqualTypeOf<Promise<string>>()
  })

  it('exposes only the listed methods and refuses a member that is not one', () => {
    const port = asyncPort(new Counter(), ['add'])
    expect(Object.keys(port)).toEqual(['add'])
    expect(() => asyncPort(new Counter(), ['label'])).toThrow(TypeError)
  })

  it('types each method with the same parameters and a promise of its result', () => {
    expectTypeOf<Promisified<Counter>>().toEqualTypeOf<{
      add: (by: number) => Promise<number>
      explode: (message: string) => Promise<never>
      later: () => Promise<string>
    }>()
  })
})
