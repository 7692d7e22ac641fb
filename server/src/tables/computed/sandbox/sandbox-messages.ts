/** Sent once when a worker starts, so it loads its engine before the first computation arrives. */
export interface SandboxWarmUp {
  kind: 'warm-up'
  memoryLimitBytes: number
}

/** What the pool sends a sandbox worker: one computation, its row already encoded as JSON text. */
export interface SandboxRequest {
  id: number
  code: string
  rowJson: string
  timeLimitMs: number
  memoryLimitBytes: number
}

/** A worker's word that the engine is loaded and the code starts now: the pool's time limit counts from here. */
export interface SandboxRunning {
  id: number
  kind: 'running'
}

/**
 * What a worker answers. `value` carries the result as JSON text; `failed` is the code's own failure (the reason is
 * for the cell's status); `unavailable` means the engine itself could not start (not the code's fault).
 */
export type SandboxResponse =
  | { id: number; kind: 'value'; json: string }
  | { id: number; kind: 'failed'; reason: string }
  | { id: number; kind: 'unavailable'; message: string }
