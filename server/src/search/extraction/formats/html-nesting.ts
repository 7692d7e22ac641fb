/** Elements that never have content, and elements whose end tag is optional (an unclosed one is closed implicitly). */
const notNesting = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr',
  'p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'option', 'optgroup', 'thead', 'tbody', 'tfoot', 'colgroup', 'rp', 'rt',
  '!doctype',
])
const rawText = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noscript', 'template'])

/**
 * The deepest element nesting of HTML, estimated in one linear scan of the tags before any parsing (the parser's
 * cost grows with depth, so depth must be known first). Void elements, self-closed tags and elements with an
 * optional end tag do not count; comments and raw-text elements (script, style, ...) are skipped.
 *
 * @example
 * ```ts
 * htmlNestingDepth('<div><section><p>a<p>b</section></div>') // 2
 * ```
 */
export function htmlNestingDepth(html: string): number {
  const tag = /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][\w:-]*|!doctype)\b[^<>]*?(\/?)>/gi
  let depth = 0
  let deepest = 0
  for (let match = tag.exec(html); match !== null; match = tag.exec(html)) {
    const name = match[2]?.toLowerCase()
    if (name === undefined) continue
    if (match[1] === '/') {
      if (!notNesting.has(name) && depth > 0) depth--
      continue
    }
    if (match[3] === '/' || notNesting.has(name)) continue
    if (rawText.has(name)) {
      const close = new RegExp(`</${name}`, 'gi')
      close.lastIndex = tag.lastIndex
      tag.lastIndex = close.exec(html)?.index ?? html.length
      continue
    }
    depth++
    if (depth > deepest) deepest = depth
  }
  return deepest
}
