import { parentPort } from 'node:worker_threads'
import { extractDocumentHere } from '../extract-document.js'
import { ExtractionError } from '../extraction-error.js'
import type { ExtractionResponse, WorkerRequest } from './worker-messages.js'

// The body of an extraction worker thread: one request at a time (the pool never sends a second before the
// answer), every failure answered as data so that only a crash or a termination ends the thread.
const port = parentPort
if (!port) throw new Error('extraction-worker.ts runs as a worker thread only')

port.on('message', (request: WorkerRequest) => {
  void answer(request).then((response) => {
    // Rendered images are moved to the pool's thread, not copied.
    const transfer = 'rendered' in response ? response.rendered.pages.map((page) => page.png.buffer as ArrayBuffer) : []
    port.postMessage(response, transfer)
  })
})

async function answer(request: WorkerRequest): Promise<ExtractionResponse> {
  try {
    if (request.kind === 'render-pages') {
      // Page rendering loads pdf.js and its canvas here, on the first request that asks for it.
      const { renderPdfPagesHere } = await import('../formats/pdf-pages.js')
      const { key, pages, maxPages, longestSidePx } = request
      return { id: request.id, ok: true, rendered: await renderPdfPagesHere(request.content, { key, pages, maxPages, longestSidePx }) }
    }
    const passages = await extractDocumentHere(
      { content: request.content, contentType: request.contentType, key: request.key },
      { maximumChunkLength: request.maximumChunkLength, limits: request.limits },
    )
    return { id: request.id, ok: true, passages }
  } catch (error) {
    if (error instanceof ExtractionError) {
      return { id: request.id, ok: false, code: error.code, message: error.message, ...(error.metadata ? { metadata: error.metadata } : {}) }
    }
    return { id: request.id, ok: false, code: 'CORRUPT_DOCUMENT', message: `${request.key} could not be read: ${(error as Error)?.message ?? String(error)}` }
  }
}
