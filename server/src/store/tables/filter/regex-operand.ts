import { regexFlags } from 'botshelf/api'
import { invalidQuery, type TablesStoreError } from '../errors.js'
import { regexLimits } from '../regex-limits.js'
import { compileSafeRegex, RegexTooComplexError, type SafeRegex } from '../safe-regex.js'
import type { FilterNode } from './ast.js'

/**
 * Checks the form of a `$regex` pattern and its `$options`: a string of at most 512 characters, flags among
 * `i`, `m`, `s`, `u`, each once (docs/decisions/0405-filter-semantics.md, 0409-linear-time-regex.md). `path` is
 * the condition's path. Throws `InvalidQuery` naming `<path>.$regex` or `<path>.$options` otherwise. The
 * pattern itself is compiled once the whole filter is read (`compileFilterRegexes`), within the limits every
 * pattern of the filter shares.
 *
 * @example
 * ```ts
 * checkRegex('^a', 'i', 'filter.name') // { pattern: '^a', flags: 'i', path: 'filter.name.$regex' }
 * checkRegex(1, undefined, 'filter.name') // throws InvalidQuery
 * ```
 */
export function checkRegex(pattern: unknown, options: unknown, path: string): { pattern: string; flags: string; path: string } {
  if (typeof pattern !== 'string') throw invalidQuery(`${path}.$regex: expected a string pattern, received ${typeof pattern}`)
  if (pattern.length > regexLimits.patternMaxLength) {
    throw invalidQuery(`${path}.$regex: at most ${regexLimits.patternMaxLength} characters, received ${pattern.length}`)
  }
  const flags = options === undefined ? '' : options
  if (typeof flags !== 'string') throw invalidQuery(`${path}.$options: expected a string of flags, received ${typeof flags}`)
  for (const flag of flags) {
    if (!(regexFlags as readonly string[]).includes(flag)) {
      throw invalidQuery(`${path}.$options: unsupported regex flag "${flag}"; allowed: ${regexFlags.join(', ')}`)
    }
  }
  if (new Set(flags).size !== flags.length) throw invalidQuery(`${path}.$options: repeated regex flag in "${flags}"`)
  return { pattern, flags, path: `${path}.$regex` }
}

function tooComplex(path: string, reason: string): TablesStoreError {
  return invalidQuery(`${path}: the pattern is too complex: ${reason}`)
}

/** The `$regex` conditions of a filter, in the order they were written. */
function regexNodes(root: FilterNode): Array<Extract<FilterNode, { type: 'regex' }>> {
  const found: Array<Extract<FilterNode, { type: 'regex' }>> = []
  const stack: FilterNode[] = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.type === 'regex') found.push(node)
    else if (node.type === 'and' || node.type === 'or') for (let i = node.nodes.length - 1; i >= 0; i--) stack.push(node.nodes[i]!)
    else if (node.type === 'not') stack.push(node.node)
  }
  return found
}

/**
 * Compiles every `$regex` pattern of a parsed filter, refusing with `InvalidQuery` naming the pattern's path: RE2
 * syntax errors (backreferences, lookarounds), and patterns too large to run cheaply. Together, the patterns of
 * one filter may be estimated at `regexLimits.estimateMax` instructions before compiling (so no time goes into
 * compiling a pattern such as `a{1000}` repeated) and compile to `regexLimits.programMax` (1000) instructions
 * (docs/decisions/0701-input-bounds.md). Compiled patterns are cached for the query that runs them.
 *
 * @example
 * ```ts
 * compileFilterRegexes(parseFilter({ name: { $regex: '(.*a){1000}' } }, kindOf))
 * // throws InvalidQuery: filter.name.$regex: the pattern is too complex: it compiles to 5002 instructions, …
 * ```
 */
export function compileFilterRegexes(root: FilterNode): SafeRegex[] {
  const nodes = regexNodes(root)
  const compiled: SafeRegex[] = []
  let instructions = 0
  for (const node of nodes) {
    let regex: SafeRegex
    try {
      regex = compileSafeRegex(node.pattern, node.flags)
    } catch (error) {
      if (error instanceof RegexTooComplexError) throw tooComplex(node.path, error.message)
      throw invalidQuery(
        `${node.path}: invalid or unsupported regular expression ${JSON.stringify(node.pattern)} (${(error as Error).message}); patterns use RE2 syntax: no backreferences or lookarounds`,
      )
    }
    instructions += regex.programSize
    if (instructions > regexLimits.programMax) {
      throw tooComplex(node.path, `the $regex patterns of this filter compile to ${instructions} instructions together, at most ${regexLimits.programMax} are allowed`)
    }
    compiled.push(regex)
  }
  return compiled
}
