/**
 * Worker thread entry of the vector lists' training (decision 0821): receives the packed vectors of one bot and
 * embedder, trains the centroids and assigns every vector its list, off the server's event loop.
 */
import { parentPort } from 'node:worker_threads'
import { assignLists, recallByProbes, trainLists } from '../../search/vector-lists.js'
import type { TrainRequest, TrainResult } from './lists-training.js'

parentPort!.on('message', (request: TrainRequest) => {
  try {
    const centroids = trainLists(request.vectors, request.dimensions, { lists: request.lists, seed: request.seed })
    const assignment = assignLists(request.vectors, request.dimensions, centroids)
    const recalls = recallByProbes(request.vectors, request.dimensions, centroids, assignment, { probeCounts: request.probeCounts })
    const result: TrainResult = { ok: true, centroids, assignment, recalls }
    parentPort!.postMessage(result, [centroids.buffer as ArrayBuffer, assignment.buffer as ArrayBuffer])
  } catch (error) {
    const result: TrainResult = { ok: false, message: error instanceof Error ? error.message : String(error) }
    parentPort!.postMessage(result)
  }
})
