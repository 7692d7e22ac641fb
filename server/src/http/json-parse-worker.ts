// The worker thread of `parseJsonOffThread`: parses each body it is sent and answers with the value serialized
// by V8 (a transferable buffer, much cheaper for the event loop to read back than the JSON text was to parse).
import { serialize } from 'node:v8'
import { parentPort } from 'node:worker_threads'
import { parseJsonBytes } from './json-parse.js'

parentPort?.on('message', (message: { id: number; bytes: Uint8Array }) => {
  const outcome = parseJsonBytes(message.bytes)
  if (outcome.kind !== 'value') {
    parentPort?.postMessage({ id: message.id, outcome })
    return
  }
  const serialized = serialize(outcome.value)
  const buffer = serialized.buffer.slice(serialized.byteOffset, serialized.byteOffset + serialized.byteLength)
  parentPort?.postMessage({ id: message.id, serialized: buffer }, [buffer])
})
