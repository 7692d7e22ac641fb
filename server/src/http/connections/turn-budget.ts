/**
 * Bounds the request work one turn of the event loop runs, so the loop comes back to its sockets often.
 *
 * libuv (1.45 and later, Node 20) accepts **one** new connection per turn of the loop. Under keep-alive load, a
 * turn used to run every request that was ready (200 busy connections: 50-200 ms of work), so new connections were
 * accepted at a handful a second and waited in the kernel's queue for seconds (decision 1220). Here a turn runs
 * requests until `budgetMs` of it has passed; the requests that arrive after that wait, first in first out, and run
 * in the next turns (each in its own callback, after the loop has polled the sockets again). A turn that accepted a
 * connection (`hurry`) ends after 2 ms, so the next connection is accepted soon. A task marked urgent (a health
 * check) runs at once, never behind the others.
 *
 * A turn is measured from its timers phase: a zero-delay timer opened with the turn's first task marks the start of
 * the next one. Whatever the clock says, every turn with waiting tasks runs at least one, so nothing starves.
 *
 * @example
 * ```ts
 * const turns = new TurnBudget({ budgetMs: 10 })
 * http.createServer((req, res) => turns.run(() => handle(req, res), { urgent: req.url === '/health' }))
 * ```
 */
/** The budget of a turn that accepted a connection, in ms. */
const HURRIED_BUDGET_MS = 2

export class TurnBudget {
  readonly #budgetMs: number
  readonly #now: () => number
  readonly #waiting: Array<() => void> = []
  #head = 0
  /** When the current turn's accounting started; undefined until a task comes in a new turn. */
  #turnStartedAt: number | undefined
  /** Tasks run from the queue in the current turn. */
  #ranFromQueue = 0
  /** The current turn accepted a connection: it ends sooner, since more may wait to be accepted. */
  #hurried = false
  readonly #hurriedBudgetMs: number

  /**
   * `budgetMs`: the time of a turn after which arriving requests wait for the next turns (at least 1 ms). `now`: a
   * monotonic clock in ms, for tests; default `performance.now`.
   *
   * @example
   * ```ts
   * new TurnBudget({ budgetMs: 10 })
   * ```
   */
  constructor(options: { budgetMs: number; now?: () => number }) {
    if (!Number.isFinite(options.budgetMs) || options.budgetMs < 1) {
      throw new RangeError(`budgetMs: expected a number of milliseconds from 1, received ${String(options.budgetMs)}`)
    }
    this.#budgetMs = options.budgetMs
    this.#hurriedBudgetMs = Math.min(options.budgetMs, HURRIED_BUDGET_MS)
    this.#now = options.now ?? (() => performance.now())
  }

  /**
   * Runs `task` now when the turn has time left and no task waits (or when it is `urgent`); otherwise queues it
   * behind the tasks already waiting.
   *
   * @example
   * ```ts
   * turns.run(() => listener(incoming, outgoing), { urgent: incoming.url === '/health' })
   * ```
   */
  run(task: () => void, options: { urgent?: boolean } = {}): void {
    this.#openTurn()
    if (options.urgent === true || (this.waiting === 0 && !this.#spent())) {
      task()
      return
    }
    this.#waiting.push(task)
    // One callback per waiting task: each runs after the previous one's promise work has settled, so the clock
    // read before it counts that work.
    setImmediate(this.#runNext)
  }

  /**
   * How many tasks wait for a later turn.
   *
   * @example
   * ```ts
   * turns.waiting // 0 on an idle server
   * ```
   */
  get waiting(): number {
    return this.#waiting.length - this.#head
  }

  /**
   * Shortens the current turn to 2 ms (or the budget, if less): call it when a connection is accepted. libuv accepts
   * one per turn, so while connections keep coming, turns stay short and each accepts the next one.
   *
   * @example
   * ```ts
   * server.on('connection', () => turns.hurry())
   * ```
   */
  hurry(): void {
    this.#openTurn()
    this.#hurried = true
  }

  #spent(): boolean {
    return this.#turnStartedAt !== undefined && this.#now() - this.#turnStartedAt >= (this.#hurried ? this.#hurriedBudgetMs : this.#budgetMs)
  }

  #openTurn(): void {
    if (this.#turnStartedAt !== undefined) return
    this.#turnStartedAt = this.#now()
    this.#ranFromQueue = 0
    this.#hurried = false
    // Fires in the next turn's timers phase, before that turn polls the sockets: its accounting starts afresh.
    setTimeout(this.#closeTurn, 0)
  }

  #closeTurn = (): void => {
    this.#turnStartedAt = undefined
  }

  #runNext = (): void => {
    this.#openTurn()
    if (this.#ranFromQueue > 0 && this.#spent()) {
      // Out of time: wait for the next turn, keeping the place (the queue, not the callback, decides the order).
      setImmediate(this.#runNext)
      return
    }
    const task = this.#waiting[this.#head]
    if (task === undefined) return
    this.#waiting[this.#head] = undefined as unknown as () => void
    this.#head += 1
    if (this.#head > 1024 && this.#head * 2 > this.#waiting.length) {
      this.#waiting.splice(0, this.#head)
      this.#head = 0
    }
    this.#ranFromQueue += 1
    task()
  }
}
