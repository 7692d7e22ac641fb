import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Sqlite } from '../connect.js'
import { listCountFor, nearestList, probeCandidates, probeCountFor, rankLists, VECTOR_LISTS_DEFAULTS, type VectorListsSettings } from '../../search/vector-lists.js'
import { trainListsInWorker, type RunningTraining, type TrainedLists } from './lists-training.js'
import { nextStepSize } from '../../../platform/index.js'

/** The trained lists of one bot and embedder, as cached in memory. */
interface ListsState {
  version: number
  dimensions: number
  lists: number
  centroids: Float32Array
  /** Lists a query probes first: chosen at training by estimated recall (decision 1478), else the settings' count. */
  probes: number
}

/** Where a query starts: every list from the closest centroid, and how many of them to probe first. */
export interface ListsProbe {
  order: Int32Array
  first: number
}

/** Rows read per statement while collecting a bot's vectors for training (the event loop turns between reads). */
// Each row is a page of its own (~2.4 KB): a read of 1,000 holds the loop a fifth as long as the 5,000 it read before
// (decision 1482).
const READ_CHUNK = 1_000

/**
 * A training's list ids are written in steps, each its own transaction, sized to hold the event loop about `targetMs`
 * (decision 1484): one transaction for every passage held it 112 s at 1M passages (decision 1482).
 */
const COMMIT_STEP = { targetMs: 8, min: 20, max: 20_000 }
const FIRST_COMMIT_STEP = 200

const keyOf = (botId: string, embedderId: string) => `${botId}\u0000${embedderId}`

function floats(bytes: Buffer): Float32Array {
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
}

/**
 * The approximate vector stage of the SQLite search index (decision 0821): per bot and embedder, once it holds
 * `minVectors` vectors, k-means centroids (√n lists) trained in a worker thread and stored in `search_vector_lists`;
 * each passage's `list_id` is written with the passage, in its transaction; a query probes the lists of the closest
 * centroids. Training starts after writes (and at open) when a bot crosses the threshold, doubles or halves since the
 * last training; it commits between transactions and reassigns in that commit the passages written meanwhile, so
 * every vector of a trained bot and embedder always has a list. Below the threshold, search stays exact.
 *
 * @example
 * ```ts
 * const lists = new SqliteVectorLists(db, { minVectors: 20_000 })
 * lists.listFor(botId, embedderId, vector) // 17, or null while untrained
 * await lists.idle()
 * ```
 */
export class SqliteVectorLists {
  readonly settings: VectorListsSettings
  private readonly cache = new Map<string, ListsState>()
  private readonly pending = new Set<string>()
  /** Writes noted per bot and embedder (`changed`): a commit knows whether passages were written since its snapshot. */
  private readonly writes = new Map<string, number>()
  private running: Promise<void> = Promise.resolve()
  private training: RunningTraining | undefined
  private stopped = false

  constructor(
    private readonly db: Sqlite,
    settings: Partial<VectorListsSettings> = {},
    private readonly waitIdle: () => Promise<void> | undefined = () => undefined,
    /** Called after each transaction this class commits itself (a training's steps): the log's checkpointer looks then. */
    private readonly written: () => void = () => undefined,
  ) {
    this.settings = { ...VECTOR_LISTS_DEFAULTS, ...settings }
  }

  /**
   * The list a new vector of this bot and embedder belongs to, or `null` while they have no trained lists.
   *
   * @example
   * ```ts
   * lists.listFor('bot_1', 'offline:x', vector) // 17
   * ```
   */
  listFor(botId: string, embedderId: string | null, vector: Float32Array | null): number | null {
    return this.assigner(botId, embedderId)(vector)
  }

  /**
   * A function placing vectors of this bot and embedder in their lists (`null` while untrained), reading the lists'
   * state once: for the passages of one write.
   *
   * @example
   * ```ts
   * const place = lists.assigner('bot_1', 'offline:x')
   * passages.map((passage) => place(passage.vector))
   * ```
   */
  assigner(botId: string, embedderId: string | null): (vector: Float32Array | null) => number | null {
    const state = embedderId === null ? undefined : this.state(botId, embedderId)
    if (!state) return () => null
    return (vector) => (vector !== null && vector.length === state.dimensions ? nearestList(state.centroids, state.dimensions, vector) : null)
  }

  /**
   * The lists to probe for a query, or `undefined` when the bot and embedder are searched exactly.
   *
   * @example
   * ```ts
   * lists.probe('bot_1', 'offline:x', query) // { order: Int32Array [...], first: 28 }
   * ```
   */
  probe(botId: string, embedderId: string, query: Float32Array): ListsProbe | undefined {
    const state = this.state(botId, embedderId)
    if (!state || state.dimensions !== query.length) return undefined
    return { order: rankLists(state.centroids, state.dimensions, query), first: state.probes }
  }

  /**
   * Notes that this bot's vectors of this embedder changed: a training (or dropping the lists) is considered after
   * the current call, once, however many writes come in between.
   *
   * @example
   * ```ts
   * lists.changed('bot_1', 'offline:x')
   * ```
   */
  changed(botId: string, embedderId: string | null): void {
    if (embedderId === null || this.stopped) return
    const key = keyOf(botId, embedderId)
    this.writes.set(key, (this.writes.get(key) ?? 0) + 1)
    if (this.pending.has(key)) return
    this.pending.add(key)
    this.running = this.running.then(() => this.consider(botId, embedderId, key))
  }

  /**
   * Considers every bot and embedder of the database (at open: a database upgraded from the exact-only schema trains
   * its lists without waiting for a write).
   *
   * @example
   * ```ts
   * lists.considerAll()
   * ```
   */
  considerAll(): void {
    const rows = this.pairs()
    for (const row of rows) this.changed(row.botId, row.embedderId)
  }

  /**
   * Resolves once no training is pending or running (tests, benchmarks, `botshelf reindex`).
   *
   * @example
   * ```ts
   * await lists.idle()
   * ```
   */
  async idle(): Promise<void> {
    for (;;) {
      const current = this.running
      await current
      if (current === this.running) return
    }
  }

  /**
   * Trains the lists of a bot and embedder now if it holds at least `minVectors` vectors, whatever their last
   * training (`botshelf reindex` calls it to rebuild them); resolves when done.
   *
   * @example
   * ```ts
   * await lists.rebuild('bot_1', 'offline:x')
   * ```
   */
  async rebuild(botId: string, embedderId: string): Promise<void> {
    this.running = this.running.then(() => this.consider(botId, embedderId, keyOf(botId, embedderId), true))
    await this.idle()
  }

  /**
   * Retrains the lists of every bot and embedder holding at least `minVectors` vectors and drops the others'
   * (`botshelf reindex`); resolves when done.
   *
   * @example
   * ```ts
   * await backend.vectorLists.rebuildAll()
   * ```
   */
  async rebuildAll(): Promise<void> {
    const rows = this.pairs()
    for (const row of rows) this.running = this.running.then(() => this.consider(row.botId, row.embedderId, keyOf(row.botId, row.embedderId), true))
    await this.idle()
  }

  /**
   * Stops: a running training is abandoned (its thread ended) and nothing more is started or committed.
   *
   * @example
   * ```ts
   * await lists.stop()
   * ```
   */
  async stop(): Promise<void> {
    this.stopped = true
    this.training?.cancel()
    await this.running
  }

  /**
   * Every bot and embedder holding vectors or lists. The passages' pairs are found by seeking from one pair to the
   * next in the vector scan's index `(bot_id, embedder_id, …)`, one look-up per pair: grouping every passage read the
   * whole index at open, ~3 s at 1,000,000 passages before the server listened (decision 1482).
   */
  private pairs(): Array<{ botId: string; embedderId: string }> {
    const firstBot = this.db.prepare('SELECT bot_id FROM search_passages ORDER BY bot_id LIMIT 1').pluck()
    const nextBot = this.db.prepare('SELECT bot_id FROM search_passages WHERE bot_id > ? ORDER BY bot_id LIMIT 1').pluck()
    // `embedder_id > ?` starting from '' skips the passages without a vector (NULL sorts first).
    const nextEmbedder = this.db.prepare('SELECT embedder_id FROM search_passages WHERE bot_id = ? AND embedder_id > ? ORDER BY embedder_id LIMIT 1').pluck()
    const pairs = new Map<string, { botId: string; embedderId: string }>()
    for (let botId = firstBot.get() as string | undefined; botId !== undefined; botId = nextBot.get(botId) as string | undefined) {
      for (let embedderId = nextEmbedder.get(botId, '') as string | undefined; embedderId !== undefined; embedderId = nextEmbedder.get(botId, embedderId) as string | undefined) {
        pairs.set(keyOf(botId, embedderId), { botId, embedderId })
      }
    }
    for (const row of this.db.prepare('SELECT bot_id AS botId, embedder_id AS embedderId FROM search_vector_lists').all() as Array<{ botId: string; embedderId: string }>) {
      pairs.set(keyOf(row.botId, row.embedderId), row)
    }
    return [...pairs.values()]
  }

  private state(botId: string, embedderId: string): ListsState | undefined {
    const key = keyOf(botId, embedderId)
    const row = this.db.prepare('SELECT version FROM search_vector_lists WHERE bot_id = ? AND embedder_id = ?').get(botId, embedderId) as { version: number } | undefined
    if (!row) {
      this.cache.delete(key)
      return undefined
    }
    const cached = this.cache.get(key)
    if (cached?.version === row.version) return cached.lists > 0 ? cached : undefined
    const full = this.db
      .prepare('SELECT version, dimensions, lists, centroids, probes FROM search_vector_lists WHERE bot_id = ? AND embedder_id = ?')
      .get(botId, embedderId) as { version: number; dimensions: number; lists: number; centroids: Buffer; probes: number | null }
    const state: ListsState = {
      version: full.version,
      dimensions: full.dimensions,
      lists: full.lists,
      centroids: floats(full.centroids),
      probes: probeCountFor(full.lists, full.probes ?? this.settings.probes),
    }
    this.cache.set(key, state)
    return state.lists > 0 ? state : undefined
  }

  /** Waits until the server's own transactions are done and none is open; `false` once stopped. */
  private async writable(): Promise<boolean> {
    for (;;) {
      await this.quiet()
      if (this.stopped) return false
      if (!this.db.inTransaction) return true
      await nextTurn()
    }
  }

  private async quiet(): Promise<void> {
    for (;;) {
      const wait = this.waitIdle()
      if (!wait) return
      await wait.catch(() => undefined)
    }
  }

  private async consider(botId: string, embedderId: string, key: string, force = false): Promise<void> {
    this.pending.delete(key)
    if (this.stopped) return
    try {
      await this.quiet()
      if (this.stopped || this.db.inTransaction) return
      const count = this.countVectors(botId, embedderId)
      const trained = this.db.prepare('SELECT trained_vectors AS n FROM search_vector_lists WHERE bot_id = ? AND embedder_id = ?').pluck().get(botId, embedderId) as
        | number
        | undefined
      const { minVectors } = this.settings
      if (count < minVectors) {
        // Under the threshold, exact search is fast enough; drop lists only well below it (no flapping at the edge).
        if (trained !== undefined && (force || count < minVectors / 2 || count * 2 <= trained)) this.drop(botId, embedderId)
        return
      }
      if (!force && trained !== undefined && count < trained * 2 && count * 2 > trained) return
      await this.train(botId, embedderId)
    } catch {
      // A failed training leaves the previous state (exact search or the older lists), which stays correct; the
      // next write considers it again.
    }
  }

  private countVectors(botId: string, embedderId: string): number {
    return this.db.prepare('SELECT count(*) FROM search_passages WHERE bot_id = ? AND embedder_id = ? AND embedding IS NOT NULL').pluck().get(botId, embedderId) as number
  }

  private drop(botId: string, embedderId: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM search_vector_lists WHERE bot_id = ? AND embedder_id = ?').run(botId, embedderId)
      this.db.prepare('UPDATE search_passages SET list_id = NULL WHERE bot_id = ? AND embedder_id = ? AND list_id IS NOT NULL').run(botId, embedderId)
    })()
    this.written()
  }

  private async train(botId: string, embedderId: string): Promise<void> {
    const writesAtSnapshot = this.writes.get(keyOf(botId, embedderId)) ?? 0
    const snapshot = await this.readVectors(botId, embedderId)
    if (!snapshot || this.stopped) return
    const lists = listCountFor(snapshot.ids.length)
    const probeCounts = probeCandidates(lists, this.settings.probes)
    const training = trainListsInWorker({ vectors: snapshot.vectors, dimensions: snapshot.dimensions, lists, probeCounts, seed: 1 })
    this.training = training
    let result: TrainedLists
    try {
      result = await training.result
    } finally {
      this.training = undefined
    }
    if (this.stopped) return
    await this.quiet()
    if (this.stopped || this.db.inTransaction) return
    await this.commit(botId, embedderId, { ...snapshot, writesAtSnapshot }, result, chooseProbes(probeCounts, result.recalls, this.settings.targetRecall))
  }

  /** Reads the bot's vectors of this embedder in chunks, letting other work run between them. */
  private async readVectors(
    botId: string,
    embedderId: string,
  ): Promise<{ rowids: number[]; ids: string[]; vectors: Float32Array; dimensions: number } | undefined> {
    const read = this.db.prepare(
      `SELECT rowid, id, embedding FROM search_passages WHERE bot_id = ? AND embedder_id = ? AND embedding IS NOT NULL AND rowid > ?
       ORDER BY rowid LIMIT ?`,
    )
    const rowids: number[] = []
    const ids: string[] = []
    // One buffer sized from a count, filled as rows come (at 1M vectors of 356 dimensions, 1.4 GB held once, not as
    // row buffers and again as their copy); grown if writes add vectors meanwhile.
    const expected = this.countVectors(botId, embedderId)
    let bytes = new Uint8Array(0)
    let dimensions = 0
    let after = 0
    for (;;) {
      await this.quiet()
      if (this.stopped) return undefined
      const rows = read.all(botId, embedderId, after, READ_CHUNK) as Array<{ rowid: number; id: string; embedding: Buffer }>
      for (const row of rows) {
        if (dimensions === 0) {
          dimensions = row.embedding.byteLength / 4
          bytes = new Uint8Array(Math.max(expected, rows.length) * dimensions * 4)
        }
        if (row.embedding.byteLength !== dimensions * 4) continue
        const at = ids.length * dimensions * 4
        if (at + row.embedding.byteLength > bytes.byteLength) {
          const grown = new Uint8Array(Math.ceil(bytes.byteLength * 1.25) + row.embedding.byteLength)
          grown.set(bytes)
          bytes = grown
        }
        bytes.set(row.embedding, at)
        rowids.push(row.rowid)
        ids.push(row.id)
      }
      if (rows.length < READ_CHUNK) break
      after = rows[rows.length - 1]!.rowid
      await nextTurn()
    }
    if (ids.length === 0) return undefined
    const vectors = new Float32Array(bytes.buffer, 0, ids.length * dimensions)
    return { rowids, ids, vectors, dimensions }
  }

  /**
   * Stores the centroids and every passage's list, in steps that let other work run between them (decision 1484):
   * 1. one small transaction marks the bot and embedder as between trainings: no lists, so search is exact and new
   *    passages get no list meanwhile, and `trained_vectors = 0`, so a crash before the end retrains at the next open;
   * 2. the snapshot's list ids, in list order, in transactions sized to hold the event loop ~8 ms each
   *    (the rowid and id must both match: passages deleted since are skipped);
   * 3. one transaction assigns the passages written since (no list, or placed by the previous lists before step 1)
   *    and stores the centroids, from which search probes them.
   * Lists whose estimated recall is under `minRecall` are not kept: the row records the attempt (no centroids, so
   * search stays exact), the list ids are cleared the same way, and no training is tried again before the vectors
   * double or halve. `chosen` is the probe count kept with the lists and its estimated recall (decision 1478).
   */
  private async commit(
    botId: string,
    embedderId: string,
    snapshot: { rowids: number[]; ids: string[]; dimensions: number; writesAtSnapshot: number },
    trained: TrainedLists,
    chosen: { probes: number; recall: number },
  ): Promise<void> {
    const { dimensions } = snapshot
    const kept = chosen.recall >= this.settings.minRecall
    const centroids = kept ? trained.centroids : new Float32Array(0)
    const assignment = trained.assignment
    const lists = centroids.length / dimensions
    const record = (values: { lists: number; trainedVectors: number; centroids: Float32Array; recall: number; probes: number | null }) =>
      this.db
        .prepare(
          `INSERT INTO search_vector_lists (bot_id, embedder_id, dimensions, lists, trained_vectors, version, centroids, measured_recall, trained_at, probes)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (bot_id, embedder_id) DO UPDATE SET dimensions = excluded.dimensions, lists = excluded.lists,
             trained_vectors = excluded.trained_vectors, version = excluded.version, centroids = excluded.centroids,
             measured_recall = excluded.measured_recall, trained_at = excluded.trained_at, probes = excluded.probes`,
        )
        .run(
          botId,
          embedderId,
          dimensions,
          values.lists,
          values.trainedVectors,
          Math.floor(Math.random() * 2 ** 48),
          Buffer.from(values.centroids.buffer, values.centroids.byteOffset, values.centroids.byteLength),
          values.recall,
          new Date().toISOString(),
          values.probes,
        )

    // 1. Between trainings: exact search, no list for new passages, a retraining at the next open after a crash.
    this.db.transaction(() => record({ lists: 0, trainedVectors: 0, centroids: new Float32Array(0), recall: 0, probes: null }))()
    this.written()
    const writesBefore = this.writes.get(keyOf(botId, embedderId)) ?? 0

    // 2. The snapshot's list ids, step by step.
    const set = this.db.prepare('UPDATE search_passages SET list_id = ? WHERE rowid = ? AND id = ?')
    const order = listOrder(assignment)
    let at = 0
    let step = FIRST_COMMIT_STEP
    while (at < order.length) {
      if (!(await this.writable())) return
      const end = Math.min(order.length, at + step)
      const started = performance.now()
      this.db.transaction(() => {
        for (let k = at; k < end; k++) {
          const i = order[k]!
          set.run(kept ? assignment[i]! : null, snapshot.rowids[i]!, snapshot.ids[i]!)
        }
      })()
      const held = performance.now() - started
      this.written()
      at = end
      step = nextStepSize(step, held, COMMIT_STEP)
      await nextTurn()
    }
    if (!(await this.writable())) return

    // 3. The passages written since, then the lists.
    const setRow = this.db.prepare('UPDATE search_passages SET list_id = ? WHERE rowid = ?')
    const place = (embedding: Buffer): number | null => {
      const vector = floats(embedding)
      return kept && vector.length === dimensions ? nearestList(centroids, dimensions, vector) : null
    }
    this.db.transaction(() => {
      if (kept) {
        const unlisted = this.db.prepare(
          'SELECT rowid, embedding FROM search_passages WHERE bot_id = ? AND embedder_id = ? AND embedding IS NOT NULL AND list_id IS NULL',
        )
        for (const row of unlisted.all(botId, embedderId) as Array<{ rowid: number; embedding: Buffer }>) setRow.run(place(row.embedding), row.rowid)
      }
      // Written after the snapshot but before step 1, a passage was placed by the previous lists: not in the snapshot,
      // and it has a list. Looked for only when such writes happened.
      if (writesBefore !== snapshot.writesAtSnapshot) {
        const inSnapshot = new Set(snapshot.ids)
        const listed = this.db.prepare(
          'SELECT rowid, id FROM search_passages WHERE bot_id = ? AND embedder_id = ? AND embedding IS NOT NULL AND list_id IS NOT NULL',
        )
        const embeddingOf = this.db.prepare('SELECT embedding FROM search_passages WHERE rowid = ?').pluck()
        const stale = (listed.all(botId, embedderId) as Array<{ rowid: number; id: string }>).filter((row) => !inSnapshot.has(row.id))
        for (const row of stale) setRow.run(place(embeddingOf.get(row.rowid) as Buffer), row.rowid)
      }
      record({ lists, trainedVectors: snapshot.ids.length, centroids, recall: chosen.recall, probes: kept ? chosen.probes : null })
    })()
    this.written()
  }
}

/**
 * The snapshot's vectors list by list (each list in snapshot order, which is rowid order): the order the commit
 * writes their list ids in, so the covering index `(bot_id, embedder_id, list_id, …)` receives its entries run by
 * run rather than at random places (100,000 passages: the commit 24 -> 16 s; decision 1482).
 *
 * @example
 * ```ts
 * Array.from(listOrder(Int32Array.from([2, 0, 2, 1]))) // [1, 3, 0, 2]
 * ```
 */
export function listOrder(assignment: Int32Array): Int32Array {
  let lists = 0
  for (const list of assignment) lists = Math.max(lists, list + 1)
  const starts = new Int32Array(lists + 1)
  for (const list of assignment) starts[list + 1]!++
  for (let list = 0; list < lists; list++) starts[list + 1]! += starts[list]!
  const order = new Int32Array(assignment.length)
  for (let i = 0; i < assignment.length; i++) order[starts[assignment[i]!]!++] = i
  return order
}

/**
 * The probe count kept with trained lists (decision 1478): the smallest of `counts` whose estimated recall reaches
 * `target`, else the largest count; with its estimate, which decides whether the lists are kept at all.
 *
 * @example
 * ```ts
 * chooseProbes([28, 35, 44], [0.93, 0.97, 0.985], 0.98) // { probes: 44, recall: 0.985 }
 * ```
 */
export function chooseProbes(counts: ReadonlyArray<number>, recalls: ReadonlyArray<number>, target: number): { probes: number; recall: number } {
  const at = recalls.findIndex((recall) => recall >= target)
  const index = at >= 0 ? at : counts.length - 1
  return { probes: counts[index]!, recall: recalls[index]! }
}
