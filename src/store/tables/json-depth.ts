import { inputBounds } from '../../api/input-bounds.js'

interface Frame {
  value: object
  depth: number
  key: string | number | undefined
  parent: Frame | undefined
}

function pathOf(frame: Frame): Array<string | number> {
  const path: Array<string | number> = []
  for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) path.push(at.key)
  return path.reverse()
}

/**
 * Where a JSON value nests deeper than `maxDepth` levels of objects and arrays (the value itself being the
 * first), or `undefined` when it does not: the path of the first container past the limit (`['a', 'a', …]`).
 * Iterative, so it never overflows the stack, and linear in the size of the value; a value reached twice (an
 * object referenced from two places) is walked again only from a deeper level. The stores check values that can
 * arrive without going through a request body (imported rows) before anything recursive (`JSON.stringify`)
 * meets them (docs/decisions/0701-input-bounds.md).
 *
 * @example
 * ```ts
 * jsonDepthPath({ a: { a: { a: 1 } } }, 2) // ['a', 'a']
 * jsonDepthPath({ a: [1, 2] }) // undefined
 * ```
 */
export function jsonDepthPath(value: unknown, maxDepth: number = inputBounds.jsonDepthMax): Array<string | number> | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const deepestVisit = new Map<object, number>()
  const stack: Frame[] = [{ value, depth: 1, key: undefined, parent: undefined }]
  while (stack.length > 0) {
    const frame = stack.pop()!
    if (frame.depth > maxDepth) return pathOf(frame)
    if ((deepestVisit.get(frame.value) ?? 0) >= frame.depth) continue
    deepestVisit.set(frame.value, frame.depth)
    const entries: Array<[string | number, unknown]> = Array.isArray(frame.value) ? frame.value.map((item, i) => [i, item]) : Object.entries(frame.value)
    for (const [key, child] of entries) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: frame.depth + 1, key, parent: frame })
    }
  }
  return undefined
}
