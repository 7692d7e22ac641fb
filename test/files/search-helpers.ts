import { createFilesFeature } from '../../server/src/files/feature.js'
import type { DocumentExtractor } from '../../server/src/search/indexing/index.js'
import { hashedTestEmbedder, type HashedTestEmbedder } from '../../server/src/search/indexing/hashed-embedder.test-support.js'
import { markdownTestExtractor } from '../../server/src/search/indexing/markdown-extractor.test-support.js'
import { startTestService, type TestService, type TestServiceOptions } from '../helpers/service.js'

/** A test service whose files feature indexes with the test extractor and embedder, plus handles on both. */
export interface SearchTestService extends TestService {
  embedder: HashedTestEmbedder
  /** Holds extraction of keys containing `gated` until `release()`. */
  gate: { release(): void; reset(): void }
}

/**
 * Starts the real service with indexing: the Markdown test extractor (extraction of keys containing `gated` waits
 * for `gate.release()`), the hashed test embedder (or none), a fast job poll, and the server's relevance floor unless
 * `minScore` says otherwise.
 *
 * @example
 * ```ts
 * const service = await startSearchService()
 * ```
 */
export async function startSearchService(options: TestServiceOptions & { withEmbedder?: boolean; extractor?: DocumentExtractor; minScore?: number } = {}): Promise<SearchTestService> {
  const embedder = hashedTestEmbedder(64)
  let open!: () => void
  let gateOpen = new Promise<void>((resolve) => (open = resolve))
  const gate = {
    release: () => open(),
    reset: () => void (gateOpen = new Promise<void>((resolve) => (open = resolve))),
  }
  const base = options.extractor ?? markdownTestExtractor
  const extractor: DocumentExtractor = async (doc, extractOptions) => {
    if (doc.key.includes('gated')) await gateOpen
    return base(doc, extractOptions)
  }
  const { withEmbedder = true, extractor: _extractor, minScore, ...serviceOptions } = options
  const service = await startTestService({
    jobs: { pollMs: 50 },
    ...serviceOptions,
    features: [createFilesFeature({ indexing: { extractor, ...(withEmbedder ? { embedder } : {}), ...(minScore !== undefined ? { minScore } : {}) } })],
  })
  return Object.assign(service, { embedder, gate })
}

/**
 * Polls getFile until the file leaves `indexing_pending` (or `upload_pending`), and returns it. Bounded so a
 * stuck file fails the test with its last state instead of hanging.
 *
 * @example
 * ```ts
 * const file = await settledFile(service, id)
 * ```
 */
export async function settledFile(service: TestService, id: string, caller: Parameters<TestService['request']>[2] = {}): Promise<any> {
  let last: any
  for (let i = 0; i < 400; i++) {
    const res = await service.request('GET', `/v1/files/${encodeURIComponent(id)}`, caller)
    last = res.body.file
    if (last && last.status !== 'indexing_pending' && last.status !== 'upload_pending') return last
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`file ${id} did not settle: ${JSON.stringify(last)}`)
}

/** Waits `ms` of real time (lets the job runner act). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
