import { inputBounds } from 'botshelf/api'
import { shortPath } from 'botshelf/api'

interface Frame {
  value: object
  depth: number
  key: string | number | undefined
  parent: Frame | undefined
}

/** What `jsonBoundsProblem` found: nesting past the limit, or the key `__proto__`, and where. */
export interface JsonBoundsProblem {
  problem: 'too-deep' | 'forbidden-key'
  /** The path of the first container past the limit, or of the `__proto__` key. */
  path: Array<string | number>
}

function pathOf(frame: Frame): Array<string | number> {
  const path: Array<string | number> = []
  for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) path.push(at.key)
  return path.reverse()
}

/**
 * Checks a JSON value against the input bounds (docs/decisions/0701-input-bounds.md): at most `maxDepth` levels
 * of objects and arrays (the value itself being the first) and no own key `__proto__`. Returns the first problem
 * and its path, or `undefined`. Iterative, so it never overflows the stack, and linear in the size of the value;
 * a value reached twice (an object referenced from two places) is walked again only from a deeper level. The
 * stores check values that can arrive without going through a request body (imported rows, schemas given to
 * the port) before anything recursive (`JSON.stringify`) meets them.
 *
 * @example
 * ```ts
 * jsonBoundsProblem({ a: { a: { a: 1 } } }, 2) // { problem: 'too-deep', path: ['a', 'a'] }
 * jsonBoundsProblem(JSON.parse('{"x":[{"__proto__":1}]}')) // { problem: 'forbidden-key', path: ['x', 0, '__proto__'] }
 * jsonBoundsProblem({ a: [1, 2] }) // undefined
 * ```
 */
export function jsonBoundsProblem(value: unknown, maxDepth: number = inputBounds.jsonDepthMax): JsonBoundsProblem | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const deepestVisit = new Map<object, number>()
  const stack: Frame[] = [{ value, depth: 1, key: undefined, parent: undefined }]
  while (stack.length > 0) {
    const frame = stack.pop()!
    if (frame.depth > maxDepth) return { problem: 'too-deep', path: pathOf(frame) }
    if ((deepestVisit.get(frame.value) ?? 0) >= frame.depth) continue
    deepestVisit.set(frame.value, frame.depth)
    const entries: Array<[string | number, unknown]> = Array.isArray(frame.value) ? frame.value.map((item, i) => [i, item]) : Object.entries(frame.value)
    for (const [key, child] of entries) {
      if (key === inputBounds.forbiddenKey) return { problem: 'forbidden-key', path: [...pathOf(frame), key] }
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: frame.depth + 1, key, parent: frame })
    }
  }
  return undefined
}

/**
 * The readable form of a `jsonBoundsProblem`: `expected …, received …`, with the place inside the value when
 * there is one (`at a.a.a…`, shortened after 8 segments).
 *
 * @example
 * ```ts
 * describeJsonBoundsProblem({ problem: 'forbidden-key', path: ['x', '__proto__'] })
 * // 'expected no key "__proto__", received one (at x.__proto__)'
 * ```
 */
export function describeJsonBoundsProblem(found: JsonBoundsProblem): string {
  const at = found.path.length > 0 ? ` (at ${shortPath(found.path)})` : ''
  return found.problem === 'too-deep'
    ? `expected at most ${inputBounds.jsonDepthMax} levels of nesting, received more${at}`
    : `expected no key "${inputBounds.forbiddenKey}", received one${at}`
}
