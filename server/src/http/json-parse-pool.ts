import { deserialize } from 'node:v8'
import type { Worker } from 'node:worker_threads'
import { moduleWorkers, spawnModuleWorker } from '../platform/index.js'
import type { JsonParseOutcome } from './json-parse.js'

interface Pending {
  resolve: (outcome: JsonParseOutcome) => void
  reject: (error: Error) => void
}

interface WorkerReply {
  id: number
  outcome?: JsonParseOutcome
  serialized?: ArrayBuffer
}

/** Heap of the parsing thread: a 40 MB body of short strings needs several times its size while parsing. */
const WORKER_HEAP_MB = 1024

let worker: Worker | undefined
let nextId = 0
const pending = new Map<number, Pending>()

function startWorker(): Worker {
  const started = spawnModuleWorker(moduleWorkers.jsonParse, { maxOldGenerationSizeMb: WORKER_HEAP_MB })
  started.unref()
  started.on('message', (reply: WorkerReply) => {
    const waiting = pending.get(reply.id)
    if (!waiting) return
    pending.delete(reply.id)
    if (pending.size === 0) started.unref()
    if (reply.serialized) waiting.resolve({ kind: 'value', value: deserialize(Buffer.from(reply.serialized)) })
    else if (reply.outcome) waiting.resolve(reply.outcome)
  })
  // A worker that dies (out of memory on a hostile body) fails what it was parsing; the next body starts a new one.
  const fail = (error: Error): void => {
    if (worker === started) worker = undefined
    for (const [id, waiting] of pending) {
      pending.delete(id)
      waiting.reject(error)
    }
  }
  started.on('error', fail)
  started.on('exit', (code) => fail(new Error(`the JSON parsing thread stopped (exit code ${code})`)))
  return started
}

/**
 * Parses a JSON body on a worker thread with the same rules as `parseJsonBytes` (UTF-8, input bounds, syntax),
 * keeping the event loop free while a large body is parsed. Bodies are parsed one after another on one thread.
 *
 * @example
 * ```ts
 * const outcome = await parseJsonOffThread(bytes) // { kind: 'value', value } | { kind: 'bounds', issue } | ...
 * ```
 */
export function parseJsonOffThread(bytes: Uint8Array): Promise<JsonParseOutcome> {
  worker ??= startWorker()
  const id = nextId++
  const target = worker
  return new Promise<JsonParseOutcome>((resolve, reject) => {
    pending.set(id, { resolve, reject })
    target.ref()
    // Copy into a buffer of its own so it can be transferred without detaching memory that others share.
    const copy = new Uint8Array(bytes.byteLength)
    copy.set(bytes)
    target.postMessage({ id, bytes: copy }, [copy.buffer])
  })
}
