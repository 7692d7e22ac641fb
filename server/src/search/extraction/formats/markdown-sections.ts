/**
 * Cuts Markdown into pieces of about `targetLength` characters at top-level block boundaries (a blank line
 * followed by a line starting in column 0, outside fenced code), so that each is parsed on its own: the parser
 * slows down more than linearly on long documents with many lists, and a boundary there changes nothing we keep
 * (a list cut in two is still its items in order). Reference-style link definitions do not cross pieces, which
 * only matters for link targets, and those are dropped anyway.
 *
 * @example
 * ```ts
 * markdownSections('# A\n\ntext\n\n# B\n\nmore', 5) // ['# A\n\n', 'text\n\n', '# B\n\n', 'more']
 * ```
 */
export function markdownSections(source: string, targetLength = 16_384): string[] {
  const lines = source.split(/(?<=\n)/)
  const sections: string[] = []
  let current: string[] = []
  let length = 0
  let fence: { char: string; size: number } | undefined
  let previousBlank = false
  for (const line of lines) {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line)
    const boundary = fence === undefined && previousBlank && /^[^\s]/.test(line)
    if (boundary && length >= targetLength) {
      sections.push(current.join(''))
      current = []
      length = 0
    }
    if (opener) {
      const char = opener[1]![0]!
      const size = opener[1]!.length
      if (fence === undefined) fence = { char, size }
      else if (char === fence.char && size >= fence.size && line.trim() === opener[1]) fence = undefined
    }
    current.push(line)
    length += line.length
    previousBlank = line.trim() === ''
  }
  if (current.length > 0) sections.push(current.join(''))
  return sections
}
