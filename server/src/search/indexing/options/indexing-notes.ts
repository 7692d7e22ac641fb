/**
 * What indexing could not apply of what the file asked, grouped by reason, for the file's status reason (decision
 * 1435): an `indexing_completed` file whose `failedStatusReason` is set was indexed without those options.
 *
 * @example
 * ```ts
 * const notes = new IndexingNotes()
 * notes.notApplied('summarization', 'no language model is configured')
 * notes.text() // 'indexed without summarization: no language model is configured'
 * ```
 */
export class IndexingNotes {
  private readonly byReason = new Map<string, string[]>()

  /** Records that `option` (as the wire names it, e.g. `parsing.smartCleanup`) was not applied, and why. */
  notApplied(option: string, reason: string): void {
    const options = this.byReason.get(reason) ?? []
    if (!options.includes(option)) options.push(option)
    this.byReason.set(reason, options)
  }

  /** Whether every option was applied. */
  get empty(): boolean {
    return this.byReason.size === 0
  }

  /** One sentence per reason, joined by `; `; `undefined` when nothing was left out. */
  text(): string | undefined {
    if (this.empty) return undefined
    return [...this.byReason].map(([reason, options]) => `indexed without ${options.join(', ')}: ${reason}`).join('; ')
  }
}
