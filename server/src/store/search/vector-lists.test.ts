import { describe, expect, it } from 'vitest'
import { assignLists, estimateRecall, listCountFor, nearestList, probeCandidates, probeCountFor, rankLists, recallByProbes, trainLists } from './vector-lists.js'

/** Three tight groups of 2-d unit vectors around 0°, 120° and 240°, 40 each, packed. */
function threeGroups(): Float32Array {
  const packed = new Float32Array(120 * 2)
  for (let i = 0; i < 120; i++) {
    const angle = (Math.floor(i / 40) * 2 * Math.PI) / 3 + ((i % 40) - 20) * 0.005
    packed[2 * i] = Math.cos(angle)
    packed[2 * i + 1] = Math.sin(angle)
  }
  return packed
}

describe('vector lists math', () => {
  it('sizes lists as √n and probes at most every list', () => {
    expect(listCountFor(100_000)).toBe(316)
    expect(listCountFor(0)).toBe(1)
    expect(probeCountFor(316, 28)).toBe(28)
    expect(probeCountFor(20, 28)).toBe(20)
    expect(probeCountFor(5, 0)).toBe(1)
  })

  it('finds the groups of clustered data: each group in one list, centroids on the group directions', () => {
    const packed = threeGroups()
    const centroids = trainLists(packed, 2, { lists: 3, seed: 4 })
    const assignment = assignLists(packed, 2, centroids)
    for (let group = 0; group < 3; group++) {
      const lists = new Set(assignment.subarray(group * 40, group * 40 + 40))
      expect(lists.size).toBe(1)
    }
    expect(new Set(assignment).size).toBe(3)
    for (let c = 0; c < 3; c++) expect(Math.hypot(centroids[2 * c]!, centroids[2 * c + 1]!)).toBeCloseTo(1, 5)
  })

  it('ranks lists by closeness to the query and assigns a vector to its nearest list', () => {
    const centroids = Float32Array.from([1, 0, 0, 1, -1, 0])
    expect(Array.from(rankLists(centroids, 2, Float32Array.from([0.6, 0.8])))).toEqual([1, 0, 2])
    expect(nearestList(centroids, 2, Float32Array.from([-0.9, 0.1]))).toBe(2)
  })

  it('estimates full recall when every list is probed, and lower recall with one list of structureless data', () => {
    const dimensions = 32
    let state = 7
    const random = () => ((state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32) - 0.5
    const packed = Float32Array.from({ length: 2_000 * dimensions }, random)
    for (let i = 0; i < 2_000; i++) {
      const norm = Math.hypot(...packed.subarray(i * dimensions, (i + 1) * dimensions))
      for (let j = 0; j < dimensions; j++) packed[i * dimensions + j]! /= norm
    }
    const centroids = trainLists(packed, dimensions, { lists: 45 })
    const assignment = assignLists(packed, dimensions, centroids)
    expect(estimateRecall(packed, dimensions, centroids, assignment, { probes: 45 })).toBe(1)
    expect(estimateRecall(packed, dimensions, centroids, assignment, { probes: 1 })).toBeLessThan(0.6)
  })

  it('considers probe counts from the setting up by ×1.25 to a quarter of the lists (decision 1478)', () => {
    expect(probeCandidates(316, 28)).toEqual([28, 35, 44, 55, 69, 79])
    expect(probeCandidates(1_000, 28)).toEqual([28, 35, 44, 55, 69, 87, 109, 137, 172, 215, 250])
    expect(probeCandidates(20, 28)).toEqual([20])
    expect(probeCandidates(100, 28)).toEqual([28])
  })

  it('estimates the recall of every probe count in one pass: the same as estimateRecall per count, rising to 1 at every list', () => {
    const dimensions = 16
    let state = 11
    const random = () => ((state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32) - 0.5
    // 60 loose groups: structure enough for some probes to miss and more probes to find.
    const centres = Array.from({ length: 60 }, () => Float32Array.from({ length: dimensions }, random))
    const packed = new Float32Array(3_000 * dimensions)
    for (let i = 0; i < 3_000; i++) {
      const centre = centres[i % 60]!
      for (let j = 0; j < dimensions; j++) packed[i * dimensions + j] = centre[j]! + random() * 0.8
      const norm = Math.hypot(...packed.subarray(i * dimensions, (i + 1) * dimensions))
      for (let j = 0; j < dimensions; j++) packed[i * dimensions + j]! /= norm
    }
    const centroids = trainLists(packed, dimensions, { lists: 55 })
    const assignment = assignLists(packed, dimensions, centroids)
    const counts = [1, 2, 4, 8, 55]
    const recalls = recallByProbes(packed, dimensions, centroids, assignment, { probeCounts: counts })
    counts.forEach((probes, i) => expect(recalls[i]).toBeCloseTo(estimateRecall(packed, dimensions, centroids, assignment, { probes }), 2))
    for (let i = 1; i < recalls.length; i++) expect(recalls[i]!).toBeGreaterThanOrEqual(recalls[i - 1]!)
    expect(recalls[0]!).toBeLessThan(0.9)
    expect(recalls[recalls.length - 1]).toBe(1)
  })
  it('assigns blocks of vectors to exactly the lists nearestList picks one by one, whatever the remainders (decision 1482)', () => {
    const dimensions = 13
    let state = 3
    const random = () => ((state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32) - 0.5
    // 1,003 vectors (not a multiple of the block of 4) against 7 centroids (odd: the last centroid alone).
    const packed = Float32Array.from({ length: 1_003 * dimensions }, random)
    const centroids = Float32Array.from({ length: 7 * dimensions }, random)
    // Two equal centroids: the first of them wins, as in nearestList.
    centroids.copyWithin(5 * dimensions, 2 * dimensions, 3 * dimensions)
    const assignment = assignLists(packed, dimensions, centroids)
    expect(assignment).toHaveLength(1_003)
    for (let i = 0; i < 1_003; i++) expect(assignment[i]).toBe(nearestList(centroids, dimensions, packed, i))
    expect(Array.from(assignment)).not.toContain(5)
    for (const count of [1, 2, 3]) {
      const few = packed.subarray(0, count * dimensions)
      expect(Array.from(assignLists(few, dimensions, centroids))).toEqual(Array.from(assignment.subarray(0, count)))
    }
  })
})
