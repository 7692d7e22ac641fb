import { describe, expect, it } from 'vitest'
import { TurnBudget } from './turn-budget.js'

/**
 * Lets the event loop turn (one check phase per await) until `done` holds, for at most 5 s: the queue runs in later
 * turns of the real loop, which is what is tested, so no clock is faked; it returns as soon as the tasks ran.
 */
async function turnsUntil(done: () => boolean): Promise<void> {
  const giveUp = performance.now() + 5_000
  while (!done() && performance.now() < giveUp) await new Promise((resolve) => setImmediate(resolve))
}

describe('TurnBudget', () => {
  it('runs a task at once while the turn has time and nothing waits', () => {
    const turns = new TurnBudget({ budgetMs: 10, now: () => 0 })
    const ran: string[] = []
    turns.run(() => ran.push('a'))
    turns.run(() => ran.push('b'))
    expect(ran).toEqual(['a', 'b'])
    expect(turns.waiting).toBe(0)
  })

  it('queues the tasks that come after the budget is spent and runs them in order in later turns; urgent ones at once', async () => {
    let clock = 0
    const turns = new TurnBudget({ budgetMs: 10, now: () => clock })
    const ran: string[] = []
    turns.run(() => ran.push('a'))
    clock = 25
    turns.run(() => ran.push('b'))
    turns.run(() => ran.push('c'))
    turns.run(() => ran.push('health'), { urgent: true })
    expect(ran).toEqual(['a', 'health'])
    expect(turns.waiting).toBe(2)
    // A task arriving while others wait goes behind them, even when its turn has time.
    await turnsUntil(() => ran.length >= 4)
    turns.run(() => ran.push('d'))
    await turnsUntil(() => ran.length >= 5)
    expect(ran).toEqual(['a', 'health', 'b', 'c', 'd'])
    expect(turns.waiting).toBe(0)
  })

  it('runs at least one waiting task per turn even when every turn is over its budget', async () => {
    let clock = 0
    const turns = new TurnBudget({ budgetMs: 1, now: () => (clock += 100) })
    const ran: number[] = []
    for (let i = 0; i < 5; i++) turns.run(() => ran.push(i))
    expect(turns.waiting).toBe(5)
    await turnsUntil(() => ran.length >= 5)
    expect(ran).toEqual([0, 1, 2, 3, 4])
  })

  it('a turn that accepted a connection ends after 2 ms instead of the whole budget', async () => {
    let clock = 0
    const turns = new TurnBudget({ budgetMs: 10, now: () => clock })
    const ran: string[] = []
    turns.run(() => ran.push('a'))
    clock = 3
    turns.run(() => ran.push('b'))
    turns.hurry()
    turns.run(() => ran.push('c'))
    expect(ran).toEqual(['a', 'b'])
    expect(turns.waiting).toBe(1)
    await turnsUntil(() => ran.length >= 3)
    expect(ran).toEqual(['a', 'b', 'c'])
  })

  it('refuses a budget under 1 ms with the value received', () => {
    expect(() => new TurnBudget({ budgetMs: 0 })).toThrow('budgetMs: expected a number of milliseconds from 1, received 0')
    expect(() => new TurnBudget({ budgetMs: Number.NaN })).toThrow('received NaN')
  })
})
