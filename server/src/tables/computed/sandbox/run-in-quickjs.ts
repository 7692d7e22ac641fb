import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten-core'
import type { QuickJsEngine } from './load-quickjs.js'
import { failureReason, type EngineFailure } from './failure-reasons.js'

/** One computation to run in a QuickJS engine. */
export interface QuickJsComputation {
  /** The body of an async function of `row`. */
  code: string
  /** The row, already JSON text. */
  rowJson: string
  timeLimitMs: number
  memoryLimitBytes: number
}

/**
 * What one computation gave: the value as JSON text, or the reason it failed. `spoiled` says that the engine may not
 * be reused (its runtime could not be freed cleanly, or it grew to the memory limit): the worker loads a fresh one.
 */
export type QuickJsOutcome = ({ kind: 'value'; json: string } | { kind: 'failed'; reason: string }) & { spoiled: boolean }

/**
 * QuickJS's own stack bound for the code, in bytes. It must stay well under the WebAssembly build's own stack (a larger
 * bound lets deep recursion run past it and abort the engine), and is ample for ordinary code.
 */
const MAX_STACK_BYTES = 256 * 1024

/** Time given to read the outcome after the code was stopped (the reads run no code of the row's). */
const CLEANUP_MS = 100

/**
 * The program every computation starts with. It is called with the code and the row's JSON text, compiles the code as
 * the body of `async function (row)`, and settles with one string whose first letter says what happened:
 * `V` + the value's JSON, `S` + a syntax error, `T` + what the code threw, `U` + why the value has no JSON form. The
 * helpers are taken before the code runs, so code that replaces `JSON` or `String` only spoils its own answer.
 */
const PRELUDE = String.raw`(function () {
  const stringify = JSON.stringify
  const parse = JSON.parse
  const toText = String
  const AsyncFunction = (async function () {}).constructor
  const bodyLine = (error) => {
    try {
      if (typeof error.lineNumber === 'number') return error.lineNumber - 2
      const found = /<input>:(\d+):/.exec(toText(error.stack))
      return found ? Number(found[1]) - 2 : undefined
    } catch (_) { return undefined }
  }
  const describe = (error) => {
    try {
      if (error !== null && typeof error === 'object' && 'message' in error) {
        const line = bodyLine(error)
        const name = toText(error.name === undefined ? 'Error' : error.name)
        return name + ': ' + toText(error.message) + (line > 0 ? ' (line ' + line + ')' : '')
      }
      return 'the value ' + (typeof error === 'string' ? stringify(error) : toText(error))
    } catch (_) {
      return 'a value that cannot be described'
    }
  }
  const encode = (value) => {
    if (value === undefined) return 'Vnull'
    let json
    try { json = stringify(value) } catch (error) { return 'U' + describe(error) }
    if (typeof json !== 'string') return 'Ua ' + typeof value + ', which has no JSON form'
    return 'V' + json
  }
  return function (code, rowJson) {
    let compute
    try { compute = new AsyncFunction('row', code) } catch (error) { return Promise.resolve('S' + describe(error)) }
    return compute(parse(rowJson)).then(encode, (error) => 'T' + describe(error))
  }
})()`

/**
 * Runs one computation in a fresh QuickJS runtime of `engine` (nothing is shared between computations: each has its
 * own globals, heap and limits), settles its promise by running the engine's job queue, and frees the runtime. The
 * time limit is checked by QuickJS's interrupt handler while the code runs; the memory limit is the engine's bounded
 * WebAssembly memory (see `loadQuickJs`) with QuickJS's allocation limit in front. Never throws for anything the
 * code does.
 *
 * @example
 * ```ts
 * const engine = await loadQuickJs(64 << 20)
 * runInQuickJs(engine, { code: 'return row.a + 1', rowJson: '{"a":1}', timeLimitMs: 1000, memoryLimitBytes: 64 << 20 })
 * // { kind: 'value', json: '2', spoiled: false }
 * ```
 */
export function runInQuickJs(engine: QuickJsEngine, computation: QuickJsComputation): QuickJsOutcome {
  let runtime: QuickJSRuntime | undefined
  let context: QuickJSContext | undefined
  const handles: QuickJSHandle[] = []
  let outcome: { kind: 'value'; json: string } | { kind: 'failed'; reason: string }
  let deadline = performance.now() + computation.timeLimitMs
  try {
    runtime = engine.module.newRuntime()
    runtime.setMemoryLimit(computation.memoryLimitBytes)
    runtime.setMaxStackSize(MAX_STACK_BYTES)
    runtime.setInterruptHandler(() => performance.now() > deadline)
    context = runtime.newContext()
    outcome = settle(runtime, context, computation, handles, () => performance.now() > deadline)
  } catch (error) {
    outcome = { kind: 'failed', reason: failureReason({ kind: 'engine', message: (error as Error)?.message ?? String(error) }, computation) }
  }
  deadline = performance.now() + CLEANUP_MS
  let spoiled = false
  try {
    for (const handle of handles) if (handle.alive) handle.dispose()
    context?.dispose()
    runtime?.dispose()
  } catch {
    spoiled = true
  }
  if (outcome.kind === 'failed' && outcome.reason.startsWith('memory limit')) spoiled = true
  return { ...outcome, spoiled }
}

function settle(
  runtime: QuickJSRuntime,
  context: QuickJSContext,
  computation: QuickJsComputation,
  handles: QuickJSHandle[],
  pastDeadline: () => boolean,
): { kind: 'value'; json: string } | { kind: 'failed'; reason: string } {
  const keep = (handle: QuickJSHandle): QuickJSHandle => {
    handles.push(handle)
    return handle
  }
  const prelude = context.evalCode(PRELUDE, 'prelude.js')
  if (prelude.error) return failed(context, keep(prelude.error), computation)
  const start = keep(prelude.value)
  const called = context.callFunction(start, context.undefined, keep(context.newString(computation.code)), keep(context.newString(computation.rowJson)))
  if (called.error) return failed(context, keep(called.error), computation)
  const promise = keep(called.value)
  for (;;) {
    const state = context.getPromiseState(promise)
    if (state.type === 'fulfilled') return answer(context, keep(state.value), computation)
    if (state.type === 'rejected') return failed(context, keep(state.error), computation)
    if (!runtime.hasPendingJob()) {
      // An interrupt inside a job ends that job without rejecting anything: the promise is left pending.
      return { kind: 'failed', reason: failureReason({ kind: pastDeadline() ? 'time' : 'never-settled' }, computation) }
    }
    const ran = runtime.executePendingJobs()
    if (ran.error) return failed(context, keep(ran.error), computation)
  }
}

/** Reads the prelude's tagged string. */
function answer(context: QuickJSContext, handle: QuickJSHandle, computation: QuickJsComputation): { kind: 'value'; json: string } | { kind: 'failed'; reason: string } {
  if (context.typeof(handle) !== 'string') return { kind: 'failed', reason: failureReason({ kind: 'engine', message: 'the sandbox answered no result' }, computation) }
  const tagged = context.getString(handle)
  const body = tagged.slice(1)
  switch (tagged[0]) {
    case 'V':
      return { kind: 'value', json: body }
    case 'S':
      return { kind: 'failed', reason: failureReason({ kind: 'syntax', message: body }, computation) }
    case 'T':
      return { kind: 'failed', reason: failureReason(classifyThrown(body), computation) }
    default:
      return { kind: 'failed', reason: failureReason({ kind: 'not-json', message: body }, computation) }
  }
}

/** An error the code could not catch (the interrupt, memory, the stack) or one raised before the code ran. */
function failed(context: QuickJSContext, error: QuickJSHandle, computation: QuickJsComputation): { kind: 'failed'; reason: string } {
  return { kind: 'failed', reason: failureReason(readEngineError(context, error), computation) }
}

/**
 * The engine's own errors reach the prelude's rejection handler as `InternalError`s: the interrupt (time), the
 * allocation bound (memory) and the stack bound. Code that throws such an error itself only words its own failure.
 */
function classifyThrown(message: string): EngineFailure {
  if (message.startsWith('InternalError: interrupted')) return { kind: 'time' }
  if (message.startsWith('InternalError: out of memory')) return { kind: 'memory' }
  if (message.startsWith('InternalError: stack overflow')) return { kind: 'stack' }
  return { kind: 'thrown', message }
}

function readEngineError(context: QuickJSContext, error: QuickJSHandle): EngineFailure {
  try {
    const name = readStringProperty(context, error, 'name')
    const message = readStringProperty(context, error, 'message') ?? ''
    return classifyThrown(name ? `${name}: ${message}` : message)
  } catch (readFailure) {
    const message = (readFailure as Error)?.message ?? ''
    if (/out of memory/.test(message)) return { kind: 'memory' }
    return { kind: 'engine', message }
  }
}

function readStringProperty(context: QuickJSContext, object: QuickJSHandle, key: string): string | undefined {
  if (context.typeof(object) !== 'object') return key === 'message' ? context.typeof(object) : undefined
  const property = context.getProp(object, key)
  try {
    return context.typeof(property) === 'string' ? context.getString(property) : undefined
  } finally {
    property.dispose()
  }
}
