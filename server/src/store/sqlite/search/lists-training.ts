import type { Worker } from 'node:worker_threads'
import { moduleWorkers, spawnModuleWorker } from '../../../platform/index.js'

/** What the training worker receives: packed unit vectors (`count × dimensions`), the list count, the probe counts whose recall to estimate (ascending), a seed. */
export interface TrainRequest {
  vectors: Float32Array
  dimensions: number
  lists: number
  probeCounts: number[]
  seed: number
}

/** What it answers: the centroids (`lists × dimensions`), the list of every vector and the estimated recall of each probe count, or why it failed. */
export type TrainResult = { ok: true; centroids: Float32Array; assignment: Int32Array; recalls: number[] } | { ok: false; message: string }

/** A finished training. */
export interface TrainedLists {
  centroids: Float32Array
  assignment: Int32Array
  /** Recall@10 of probing each of the request's probe counts, estimated on queries drawn from the data (`recallByProbes`). */
  recalls: number[]
}

/** A training running in its own worker thread; `cancel()` ends the thread and rejects `result`. */
export interface RunningTraining {
  result: Promise<TrainedLists>
  cancel(): void
}

/**
 * Trains vector lists in a new worker thread (one per training: a rare event, past a size threshold or a doubling),
 * so the k-means iterations and the assignment of every vector never block the event loop. The vectors' buffer is
 * transferred, not copied.
 *
 * @example
 * ```ts
 * const training = trainListsInWorker({ vectors, dimensions: 356, lists: 316, probeCounts: [28, 35, 44], seed: 1 })
 * const { centroids, assignment, recalls } = await training.result
 * ```
 */
export function trainListsInWorker(request: TrainRequest): RunningTraining {
  let worker: Worker | undefined = spawnModuleWorker(moduleWorkers.listsTraining)
  const result = new Promise<TrainedLists>((resolve, reject) => {
    worker!.once('message', (answer: TrainResult) => {
      void worker?.terminate()
      worker = undefined
      if (answer.ok) resolve({ centroids: answer.centroids, assignment: answer.assignment, recalls: answer.recalls })
      else reject(new Error(`vector lists training failed: ${answer.message}`))
    })
    worker!.once('error', (error) => {
      worker = undefined
      reject(error)
    })
    worker!.once('exit', (code) => {
      if (worker) reject(new Error(`vector lists training stopped (exit code ${code})`))
      worker = undefined
    })
  })
  worker.postMessage(request, [request.vectors.buffer as ArrayBuffer])
  return {
    result,
    cancel() {
      void worker?.terminate()
    },
  }
}
