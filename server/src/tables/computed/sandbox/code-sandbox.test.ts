import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Worker } from 'node:worker_threads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
  sandbox = createCodeSandbox({ timeLimitMs: 10_000, memoryLimitBytes: MEMORY_LIMIT_BYTES, concurrency: 1 })
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

  it('fails a row that has no JSON form or cannot fit in the memory limit, naming why', async () => {
    const cyclic: Record<string, unknown> = {}
    cyclic['self'] = cyclic
    expect(await sandbox.run('return 1', { id: 1n })).toEqual({ ok: false, reason: expect.stringMatching(/^the row has no JSON form: .*BigInt/) })
    expect(await sandbox.run('return 1', cyclic)).toEqual({ ok: false, reason: expect.stringMatching(/^the row has no JSON form: .*circular/i) })
    expect(await sandbox.run('return 1', { text: 'x'.repeat(MEMORY_LIMIT_BYTES) })).toEqual({
      ok: false,
      reason: `memory limit: the row is ${MEMORY_LIMIT_BYTES + 11} characters of JSON, more than the ${MEMORY_LIMIT_BYTES} bytes one computation may use`,
    })
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

  it('code that replaces the helpers the sandbox answers with spoils only its own answer', async () => {
    expect(await sandbox.run('JSON.stringify = () => "not json"; String = () => "x"; return { fine: true }', {})).toEqual({ ok: true, value: { fine: true } })
    expect(await sandbox.run('Promise.prototype.then = function () { return "V{broken" }; return 1', {})).toEqual({ ok: true, value: 1 })
    expect(await sandbox.run('return row.n', { n: 1 })).toEqual({ ok: true, value: 1 })
  })

  it('a function nested in the result is left out, like JSON.stringify does', async () => {
    expect(await sandbox.run('return { a: 1, f() {} }', {})).toEqual({ ok: true, value: { a: 1 } })
  })

  it('an endless loop meets the time limit', async () => {
    expect(await reasonOf('while (true) {}', {}, hurried)).toMatch(hurriedTimeLimit)
  })

  it('an endless promise chain meets the time limit', async () => {
    expect(await reasonOf('for (;;) await null', {}, hurried)).toMatch(hurriedTimeLimit)
    expect(await reasonOf('for (;;) { try { while (true) {} } catch (caught) {} }', {}, hurried)).toMatch(hurriedTimeLimit)
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

  it('memory under the limit is there to use, and freed for the next computation', async () => {
    const code = 'const parts = []; for (let i = 0; i < 10; i++) parts.push(new Uint8Array(1024 * 1024)); return parts.length'
    expect(await sandbox.run(code, {})).toEqual({ ok: true, value: 10 })
    expect(await sandbox.run(code, {})).toEqual({ ok: true, value: 10 })
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
    expect(await sandbox.run('return [typeof process, typeof require, typeof fetch, typeof setTimeout, typeof setInterval, typeof queueMicrotask, typeof console, typeof std, typeof os]', {})).toEqual({
      ok: true,
      value: Array(9).fill('undefined'),
    })
  })

  it('keeps serving after every hostile case', async () => {
    expect(await sandbox.run('return row.n + 1', { n: 41 })).toEqual({ ok: true, value: 42 })
  })
})

describe('the workers', () => {
  it('stops code stuck in a native call (the engine itself, or its worker terminated and replaced) and keeps serving', async () => {
    // One native call that QuickJS does not interrupt: filling a large array of a slow kind. On a quiet machine the
    // engine may still stop between two fills on its own (no replacement needed); the watchdog's own rules are
    // tested with stand-in workers below.
    expect(await reasonOf('const a = []; for (;;) a.push(new Array(1e6).fill(1))', {}, hurried)).toMatch(
      /^(time limit: the code ran longer than 100 ms, the most one computation may take(, and did not stop \(its worker was replaced\))?$|memory limit: )/,
    )
    expect(await hurried.run('return "after"', {})).toEqual({ ok: true, value: 'after' })
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
})

// The pool's own rules, with stand-in workers (plain JavaScript threads, no engine) that start in milliseconds.
describe('the pool', () => {
  it('replaces a worker that crashes under a computation', async () => {
    const workers = stubWorkers()
    const pool = createCodeSandboxOn(workers.spawn, { concurrency: 1 })
    try {
      expect(await pool.run('crash', {})).toEqual({ ok: false, reason: 'the sandbox worker stopped while running the code (exit code 7); it was replaced' })
      expect(await pool.run('after', {})).toEqual({ ok: true, value: 'after' })
      expect(workers.spawned()).toBe(2)
    } finally {
      await pool.close()
    }
  })

  it('terminates a worker that runs past the limit and its grace, and replaces it', async () => {
    const workers = stubWorkers()
    const pool = createCodeSandboxOn(workers.spawn, { timeLimitMs: 20, concurrency: 1 })
    try {
      expect(await pool.run('hang', {})).toEqual({
        ok: false,
        reason: 'time limit: the code ran longer than 20 ms, the most one computation may take, and did not stop (its worker was replaced)',
      })
      expect(await pool.run('after', {})).toEqual({ ok: true, value: 'after' })
      expect(workers.spawned()).toBe(2)
    } finally {
      await pool.close()
    }
  })

  it('runs at most `concurrency` computations at once; the others wait their turn', async () => {
    const one = stubWorkers()
    const two = stubWorkers()
    const single = createCodeSandboxOn(one.spawn, { timeLimitMs: 20, concurrency: 1 })
    const double = createCodeSandboxOn(two.spawn, { timeLimitMs: 20, concurrency: 2 })
    try {
      // Eight at once run two at a time, on two threads (each thread runs one computation at a time).
      const values = await Promise.all(Array.from({ length: 8 }, (_, index) => double.run(`value ${index}`, {})))
      expect(values.map((outcome) => (outcome.ok ? outcome.value : outcome.reason))).toEqual(Array.from({ length: 8 }, (_, index) => `value ${index}`))
      expect(two.spawned()).toBe(2)
      expect(await settleOrder(single)).toEqual(['hang', 'quick'])
      expect(await settleOrder(double)).toEqual(['quick', 'hang'])
    } finally {
      await Promise.all([single.close(), double.close()])
    }
  })

  it('rejects with SANDBOX_UNAVAILABLE when the engine cannot load (not a failure of the code)', async () => {
    const pool = createCodeSandboxOn(stubWorkers().spawn, { concurrency: 1 })
    try {
      await expect(pool.run('unavailable', {})).rejects.toMatchObject({ name: 'SandboxError', code: 'SANDBOX_UNAVAILABLE', message: 'the engine is missing' })
      expect(await pool.run('after', {})).toEqual({ ok: true, value: 'after' })
    } finally {
      await pool.close()
    }
  })

  it('close() rejects running, waiting and later runs with SANDBOX_CLOSED', async () => {
    const pool = createCodeSandboxOn(stubWorkers().spawn, { timeLimitMs: 60_000, concurrency: 1 })
    const running = pool.run('hang', {})
    const waiting = pool.run('return 1', {})
    // Handlers are attached before close() rejects them.
    running.catch(() => undefined)
    waiting.catch(() => undefined)
    await pool.close()
    await expect(running).rejects.toMatchObject({ name: 'SandboxError', code: 'SANDBOX_CLOSED' })
    await expect(waiting).rejects.toMatchObject({ code: 'SANDBOX_CLOSED' })
    await expect(pool.run('return 1', {})).rejects.toBeInstanceOf(SandboxError)
  })

  it('refuses options out of bounds, naming the option', () => {
    expect(() => createCodeSandbox({ timeLimitMs: 0 })).toThrow(/^timeLimitMs: expected an integer from 1 to 60000, received 0$/)
    expect(() => createCodeSandbox({ memoryLimitBytes: 1.5 })).toThrow(/^memoryLimitBytes: expected an integer from 1048576 to 2147483648, received 1.5$/)
    expect(() => createCodeSandbox({ concurrency: 65 })).toThrow(SandboxError)
  })

  it('fails code that is not a string without starting a worker', async () => {
    const workers = stubWorkers()
    const pool = createCodeSandboxOn(workers.spawn, { concurrency: 1 })
    expect(await pool.run(42 as unknown as string, {})).toEqual({ ok: false, reason: 'the code must be a string, received number' })
    expect(workers.spawned()).toBe(0)
    await pool.close()
  })
})

/** Which of a hanging and a quick computation, started in that order, settles first. */
async function settleOrder(target: CodeSandbox): Promise<string[]> {
  const order: string[] = []
  const note = (name: string) => (outcome: CodeRunOutcome) => {
    order.push(name)
    return outcome
  }
  await Promise.all([target.run('hang', {}).then(note('hang')), target.run('quick', {}).then(note('quick'))])
  return order
}

function startHealthServer(): Promise<Server> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

/**
 * Stand-in sandbox workers speaking the pool's messages: the code `hang` never answers, `crash` exits with code 7,
 * `unavailable` answers that the engine is missing, any other code answers itself as the value. Counts the threads
 * started.
 */
function stubWorkers(): { spawn: () => Worker; spawned: () => number } {
  let spawned = 0
  const body = `const { parentPort } = require('node:worker_threads')
parentPort.on('message', (message) => {
  if (message.kind === 'warm-up') return
  parentPort.postMessage({ id: message.id, kind: 'running' })
  if (message.code === 'crash') process.exit(7)
  if (message.code === 'hang') return
  if (message.code === 'unavailable') return parentPort.postMessage({ id: message.id, kind: 'unavailable', message: 'the engine is missing' })
  parentPort.postMessage({ id: message.id, kind: 'value', json: JSON.stringify(message.code) })
})`
  return {
    spawn: () => {
      spawned += 1
      return new Worker(body, { eval: true })
    },
    spawned: () => spawned,
  }
}
