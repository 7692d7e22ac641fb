import { describe, expect, expectTypeOf, it } from 'vitest'
import { asyncPort, type Promisified } from './guarded-port.js'

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

describe('asyncPort with writes (decision 1210)', () => {
  function store() {
    let changes = 0
    return {
      impl: {
        read: () => 'read',
        sneakyRead: () => ((changes += 1), 'changed'),
        write: () => ((changes += 1), 'written'),
        failingWrite: (): string => {
          changes += 1
          throw new Error('refused after a statement')
        },
      },
      changes: () => changes,
    }
  }

  it('waits for durable() after a write, after a failing write, and after a read-only method that changed rows; not after a plain read', async () => {
    const { impl, changes } = store()
    const durableCalls: string[] = []
    let last = ''
    const port = asyncPort(impl, ['read', 'sneakyRead', 'write', 'failingWrite'], undefined, {
      readOnly: ['read', 'sneakyRead'],
      durable: async () => void durableCalls.push(last),
      changes,
    })
    last = 'read'
    expect(await port.read()).toBe('read')
    last = 'write'
    expect(await port.write()).toBe('written')
    last = 'failingWrite'
    await expect(port.failingWrite()).rejects.toThrow('refused after a statement')
    last = 'sneakyRead'
    expect(await port.sneakyRead()).toBe('changed')
    expect(durableCalls).toEqual(['write', 'failingWrite', 'sneakyRead'])
  })

  it('answers a write only once durable() resolved', async () => {
    const { impl, changes } = store()
    let release!: () => void
    const port = asyncPort(impl, ['write'], undefined, { readOnly: [], durable: () => new Promise<void>((resolve) => (release = resolve)), changes })
    let answered = false
    const done = port.write().then(() => (answered = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(answered).toBe(false)
    release()
    await done
    expect(answered).toBe(true)
  })

  it('answers a write-behind method once it ran, without waiting for durable()', async () => {
    const { impl, changes } = store()
    const port = asyncPort(impl, ['write'], undefined, { readOnly: [], writeBehind: ['write'], durable: () => new Promise<void>(() => undefined), changes })
    // durable() never resolves: only a method that does not wait for it answers.
    expect(await port.write()).toBe('written')
  })
})
