import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Worker } from 'node:worker_threads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnModuleWorker } from '../../../platform/index.js'
import { createCodeSandbox, createCodeSandboxOn, type CodeRunOutcome, type CodeSandbox } from './code-sandbox.js'
import { MAX_RESULT_JSON_BYTES } from './json-values.js'
import { SandboxError } from './sandbox-error.js'

// 16 MB of memory per computation keeps the allocation cases quick. The time limit of the shared sandbox is generous
// so that the memory and stack limits are met first even on a loaded machine; the time cases use `hurried`.
const MEMORY_LIMIT_BYTES = 16 * 1024 * 1024
const HURRIED_LIMIT_MS = 100
/** Either way a time limit is met: by QuickJS's interrupt, or (on a loaded machine) by the pool's watchdog. */
const hurriedTimeLimit = /^time limit: the code ran longer than 100 ms, the most one computation may take/

let sandbox: CodeSandbox
let hurried: CodeSandbox

beforeAll(() => {
  sandbox = createCodeSandbox({ timeLimitMs: 10_000, memoryLimitBytes: MEMORY_LIMIT_BYTES, concurrency: 2 })
  hurried = createCodeSandbox({ timeLimitMs: HURRIED_LIMIT_MS, concurrency: 1 })
})

afterAll(async () => {
  await Promise.all([sandbox.close(), hurried.close()])
})

/** The reason of a failed computation (fails the test when the computation succeeded). */
async function reasonOf(code: string, row: Record<string, unknown> = {}, target = sandbox): Promise<string> {
  const outcome = await target.run(code, row)
  if (outcome.ok) throw new Error(`expected ${JSON.stringify(code)} to fail, it gave ${JSON.stringify(outcome.value)}`)
  return outcome.reason
}

describe('values', () => {
  it('runs the code as the body of an async function of row', async () => {
    expect(await sandbox.run('return row.price * row.quantity', { price: 2.5, quantity: 4 })).toEqual({ ok: true, value: 10 })
    expect(await sandbox.run('const words = await Promise.resolve(row.text.split(" ")); return { count: words.length, first: words[0] }', { text: 'hello big world' })).toEqual({
      ok: true,
      value: { count: 3, first: 'hello' },
    })
  })

  it('passes values in and out as JSON: dates become ISO strings, undefined becomes null or is left out', async () => {
    const outcome = await sandbox.run('return { type: typeof row.when, when: row.when, keys: Object.keys(row), out: new Date(0), gone: undefined, list: [undefined, NaN] }', {
      when: new Date('2024-05-01T10:00:00Z'),
      missing: undefined,
    })
    expect(outcome).toEqual({
      ok: true,
      value: { type: 'string', when: '2024-05-01T10:00:00.000Z', keys: ['when'], out: '1970-01-01T00:00:00.000Z', list: [null, null] },
    })
    expect(await sandbox.run('return undefined', {})).toEqual({ ok: true, value: null })
    expect(await sandbox.run('', {})).toEqual({ ok: true, value: null })
  })

  it('keeps nothing from one computation to the next', async () => {
    expect(await sandbox.run('globalThis.leak = 42; return 1', {})).toEqual({ ok: true, value: 1 })
    expect(await sandbox.run('return typeof globalThis.leak', {})).toEqual({ ok: true, value: 'undefined' })
  })

  it('fails a row that has no JSON form, naming why', async () => {
    const cyclic: Record<string, unknown> = {}
    cyclic['self'] = cyclic
    expect(await sandbox.run('return 1', { id: 1n })).toEqual({ ok: false, reason: expect.stringMatching(/^the row has no JSON form: .*BigInt/) })
    expect(await sandbox.run('return 1', cyclic)).toEqual({ ok: false, reason: expect.stringMatching(/^the row has no JSON form: .*circular/i) })
  })
})

describe('failures of the code', () => {
  it('a syntax error', async () => {
    expect(await reasonOf('return (')).toMatch(/^the code does not compile: SyntaxError: /)
  })

  it('a thrown error, with its line in the code', async () => {
    expect(await reasonOf('const x = 1\nthrow new TypeError("no label for " + row.id)', { id: 7 })).toBe('the code threw TypeError: no label for 7 (line 2)')
    expect(await reasonOf('throw "plain"')).toBe('the code threw the value "plain"')
  })

  it('results with no JSON form: BigInt, cycles, functions, symbols, too large', async () => {
    expect(await reasonOf('return 10n')).toMatch(/^the code returned a value with no JSON form: TypeError: .*BigInt/)
    expect(await reasonOf('const a = {}; a.a = a; return a')).toMatch(/^the code returned a value with no JSON form: TypeError: circular reference/)
    expect(await reasonOf('return () => 1')).toBe('the code returned a value with no JSON form: a function, which has no JSON form')
    expect(await reasonOf('return Symbol("s")')).toBe('the code returned a value with no JSON form: a symbol, which has no JSON form')
    expect(await reasonOf('return { toJSON() { throw new Error("nope") } }')).toMatch(/^the code returned a value with no JSON form: Error: nope/)
    expect(await reasonOf(`return "x".repeat(${MAX_RESULT_JSON_BYTES})`)).toBe(
      `the code returned ${MAX_RESULT_JSON_BYTES + 2} bytes of JSON; a computed value may take at most ${MAX_RESULT_JSON_BYTES} bytes`,
    )
  })

  it('a function nested in the result is left out, like JSON.stringify does', async () => {
    expect(await sandbox.run('return { a: 1, f() {} }', {})).toEqual({ ok: true, value: { a: 1 } })
  })

  it('an endless loop meets the time limit', async () => {
    expect(await reasonOf('while (true) {}', {}, hurried)).toMatch(hurriedTimeLimit)
  })

  it('an endless promise chain meets the time limit', async () => {
    expect(await reasonOf('for (;;) await null', {}, hurried)).toMatch(hurriedTimeLimit)
    expect(await reasonOf('const spin = async () => { await null; return spin() }; return spin()', {}, hurried)).toMatch(hurriedTimeLimit)
  })

  it('a promise that never settles fails at once: nothing in the sandbox could settle it', async () => {
    expect(await reasonOf('await new Promise(() => {})')).toBe(
      'the code awaits a promise that never settles (the sandbox has no timers, network or other events to settle it)',
    )
  })

  it('a huge allocation meets the memory limit', async () => {
    expect(await reasonOf('return "x".repeat(1e9)')).toBe('memory limit: the code needed more than 16 MB, the most one computation may use')
    expect(await reasonOf('const parts = []; for (;;) parts.push(new ArrayBuffer(1024 * 1024))')).toBe(
      'memory limit: the code needed more than 16 MB, the most one computation may use',
    )
  })

  it('deep recursion is a stack overflow', async () => {
    expect(await reasonOf('function down(n) { return down(n + 1) + 1 } return down(0)')).toBe('stack overflow: the code nests calls too deeply')
    expect(await reasonOf('async function down(n) { return await down(n + 1) } return down(0)')).toBe('stack overflow: the code nests calls too deeply')
  })

  it('the process, modules, files, the network and timers are not there', async () => {
    const hint = '(code columns run in a sandbox without process, modules, files, network or timers: compute from `row` only)'
    expect(await reasonOf('process.exit(1)')).toBe(`the code threw ReferenceError: 'process' is not defined (line 1) ${hint}`)
    expect(await reasonOf('const fs = require("fs"); return fs.readFileSync("/etc/passwd", "utf8")')).toBe(`the code threw ReferenceError: 'require' is not defined (line 1) ${hint}`)
    expect(await reasonOf('return await fetch("http://127.0.0.1:9/")')).toBe(`the code threw ReferenceError: 'fetch' is not defined (line 1) ${hint}`)
    expect(await reasonOf('setTimeout(() => {}, 10)')).toBe(`the code threw ReferenceError: 'setTimeout' is not defined (line 1) ${hint}`)
    expect(await reasonOf('const fs = await import("fs"); return fs.readFileSync("/etc/passwd", "utf8")')).toMatch(/^the code threw .*could not load module 'fs'/)
    expect(await sandbox.run('return [typeof process, typeof require, typeof fetch, typeof setTimeout, typeof setInterval, typeof queueMicrotask, typeof std, typeof os]', {})).toEqual({
      ok: true,
      value: ['undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined'],
    })
  })

  it('keeps serving after every hostile case', async () => {
    expect(await sandbox.run('return row.n + 1', { n: 41 })).toEqual({ ok: true, value: 42 })
  })
})

describe('the workers', () => {
  it('terminates a worker whose engine does not stop by itself, and replaces it', async () => {
    // One native call that QuickJS does not interrupt: filling a large array of a slow kind.
    expect(await reasonOf('const a = []; for (;;) a.push(new Array(1e6).fill(1))', {}, hurried)).toMatch(
      /^(time limit: the code ran longer than 100 ms, the most one computation may take, and did not stop \(its worker was replaced\)|memory limit: )/,
    )
    expect(await hurried.run('return "after"', {})).toEqual({ ok: true, value: 'after' })
  })

  it('replaces a worker that crashes under a computation', async () => {
    let spawned = 0
    const own = createCodeSandboxOn((limits) => {
      spawned += 1
      if (spawned === 1) return crashingWorker()
      return spawnModuleWorker(import.meta.url, 'sandbox-worker', limits)
    }, { concurrency: 1 })
    try {
      expect(await own.run('return 1', {})).toEqual({ ok: false, reason: 'the sandbox worker stopped while running the code (exit code 7); it was replaced' })
      expect(await own.run('return 2', {})).toEqual({ ok: true, value: 2 })
      expect(spawned).toBe(2)
    } finally {
      await own.close()
    }
  })

  it('runs at most `concurrency` computations at once; the others wait their turn', async () => {
    const double = createCodeSandbox({ timeLimitMs: 300, concurrency: 2 })
    try {
      expect(await settleOrder(hurried)).toEqual(['loop', 'quick'])
      expect(await settleOrder(double)).toEqual(['quick', 'loop'])
    } finally {
      await double.close()
    }
  })

  it('keeps the event loop free: an HTTP health route answers while an endless loop runs (default limits)', async () => {
    const server = await startHealthServer()
    const defaults = createCodeSandbox()
    try {
      // A first computation loads the worker's engine, so the loop below starts as soon as it is sent.
      expect(await defaults.run('return "warm"', {})).toEqual({ ok: true, value: 'warm' })
      const order: string[] = []
      const looping = defaults.run('while (true) {}', {}).then((outcome) => {
        order.push('loop settled')
        return outcome
      })
      const health = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/health`)
      order.push(`health ${health.status}`)
      expect(await looping).toEqual({ ok: false, reason: 'time limit: the code ran longer than 1000 ms, the most one computation may take' })
      expect(order).toEqual(['health 200', 'loop settled'])
    } finally {
      await defaults.close()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('close() rejects waiting and later runs with SANDBOX_CLOSED', async () => {
    const own = createCodeSandbox({ timeLimitMs: 5000, concurrency: 1 })
    const running = own.run('while (true) {}', {}).catch((error: unknown) => Promise.reject(error))
    const waiting = own.run('return 1', {})
    // Handlers are attached before close() rejects them.
    running.catch(() => undefined)
    waiting.catch(() => undefined)
    await own.close()
    await expect(running).rejects.toMatchObject({ name: 'SandboxError', code: 'SANDBOX_CLOSED' })
    await expect(waiting).rejects.toMatchObject({ code: 'SANDBOX_CLOSED' })
    await expect(own.run('return 1', {})).rejects.toBeInstanceOf(SandboxError)
  })

  it('refuses options out of bounds, naming the option', () => {
    expect(() => createCodeSandbox({ timeLimitMs: 0 })).toThrow(/^timeLimitMs: expected an integer from 1 to 60000, received 0$/)
    expect(() => createCodeSandbox({ memoryLimitBytes: 1.5 })).toThrow(/^memoryLimitBytes: expected an integer from 1048576 to 2147483648, received 1.5$/)
    expect(() => createCodeSandbox({ concurrency: 65 })).toThrow(SandboxError)
  })
})

/** Which of an endless loop and a quick computation, started in that order, settles first. */
async function settleOrder(target: CodeSandbox): Promise<string[]> {
  // Two quick computations at once load the engine of every worker (of two), so neither run below waits for one.
  await Promise.all([target.run('return 1', {}), target.run('return 2', {})])
  const order: string[] = []
  const note = (name: string) => (outcome: CodeRunOutcome) => {
    order.push(name)
    return outcome
  }
  await Promise.all([target.run('while (true) {}', {}).then(note('loop')), target.run('return 1', {}).then(note('quick'))])
  return order
}

function startHealthServer(): Promise<Server> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

/** A worker that acknowledges the computation, then exits with code 7. */
function crashingWorker(): Worker {
  const body = `const { parentPort } = require('node:worker_threads')
parentPort.on('message', (request) => { parentPort.postMessage({ id: request.id, kind: 'running' }); process.exit(7) })`
  return new Worker(body, { eval: true })
}
