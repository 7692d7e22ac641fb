import { describe, expect, it } from 'vitest'
import { nextStepSize } from './step-size.js'

const bounds = { targetMs: 8, min: 200, max: 8000 }

describe('nextStepSize', () => {
  it('scales the last size by the target over the time it held the loop', () => {
    expect(nextStepSize(1000, 16, bounds)).toBe(500)
    expect(nextStepSize(1000, 4, bounds)).toBe(2000)
    expect(nextStepSize(1000, 8, bounds)).toBe(1000)
  })

  it('keeps within its bounds, and counts a step too quick to time as 0.5 ms', () => {
    expect(nextStepSize(1000, 400, bounds)).toBe(200)
    expect(nextStepSize(1000, 0, bounds)).toBe(8000)
    expect(nextStepSize(300, 0, bounds)).toBe(4800)
  })
})
