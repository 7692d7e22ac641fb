import { parentPort } from 'node:worker_threads'
import { decodeResult, MAX_RESULT_JSON_BYTES } from './json-values.js'
import { loadQuickJs, type QuickJsEngine } from './load-quickjs.js'
import { runInQuickJs } from './run-in-quickjs.js'
import type { SandboxRequest, SandboxResponse, SandboxRunning, SandboxWarmUp } from './sandbox-messages.js'

// The body of a sandbox worker thread: one computation at a time (the pool never sends a second before the answer),
// in a QuickJS engine loaded as soon as the pool names the memory limit, and kept warm. Every failure of the code is
// answered as data; only a crash or a termination by the pool's watchdog ends the thread.
const port = parentPort
if (!port) throw new Error('sandbox-worker.ts runs as a worker thread only')

let engine: Promise<QuickJsEngine> | undefined
let engineLimit = 0

/** Loads an engine bounded for `memoryLimitBytes` unless the one kept is. */
function engineFor(memoryLimitBytes: number): Promise<QuickJsEngine> {
  if (!engine || engineLimit !== memoryLimitBytes) {
    engine = loadQuickJs(memoryLimitBytes)
    engineLimit = memoryLimitBytes
    engine.catch(() => undefined) // answered per request below
  }
  return engine
}

port.on('message', (message: SandboxRequest | SandboxWarmUp) => {
  if ('kind' in message) return void engineFor(message.memoryLimitBytes)
  void answer(message).then((response) => port.postMessage(response))
})

async function answer(request: SandboxRequest): Promise<SandboxResponse> {
  let loaded: QuickJsEngine
  try {
    loaded = await engineFor(request.memoryLimitBytes)
  } catch (error) {
    engine = undefined
    return { id: request.id, kind: 'unavailable', message: `the QuickJS engine could not load: ${(error as Error)?.message ?? String(error)}` }
  }
  port!.postMessage({ id: request.id, kind: 'running' } satisfies SandboxRunning)
  const outcome = runInQuickJs(loaded, request)
  // A spoiled engine (grown to the memory limit, or not freed cleanly) is dropped with its WebAssembly memory.
  if (outcome.spoiled) engine = undefined
  if (outcome.kind === 'failed') return { id: request.id, kind: 'failed', reason: outcome.reason }
  // Checked here so that an oversized value is never copied to the service's thread.
  if (outcome.json.length > MAX_RESULT_JSON_BYTES && Buffer.byteLength(outcome.json) > MAX_RESULT_JSON_BYTES) {
    const decoded = decodeResult(outcome.json)
    if ('reason' in decoded) return { id: request.id, kind: 'failed', reason: decoded.reason }
  }
  return { id: request.id, kind: 'value', json: outcome.json }
}
