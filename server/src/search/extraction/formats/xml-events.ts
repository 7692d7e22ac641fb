/** One step of a linear scan through XML: an opening tag (with its raw attributes), a closing tag, or text. */
export type XmlEvent =
  | { type: 'open'; name: string; attributes: string; selfClosing: boolean }
  | { type: 'close'; name: string }
  | { type: 'text'; text: string }

/**
 * Scans XML into events in one pass (no tree, no recursion, no entity expansion beyond the five predefined ones
 * and character references, so no billion-laughs). Comments, processing instructions and DOCTYPE are skipped;
 * CDATA is text.
 *
 * @example
 * ```ts
 * [...xmlEvents('<a:t>x &amp; y</a:t>')] // open a:t, text 'x & y', close a:t
 * ```
 */
export function* xmlEvents(xml: string): Generator<XmlEvent> {
  const token = /<!\[CDATA\[([\s\S]*?)(?:\]\]>|$)|<!--[\s\S]*?(?:-->|$)|<[?!][^<>]*>|<\/([\w:.-]+)\s*>|<([\w:.-]+)((?:\s+[^<>]*?)?)(\/?)>|([^<]+)/g
  for (let match = token.exec(xml); match !== null; match = token.exec(xml)) {
    if (match[1] !== undefined) yield { type: 'text', text: match[1] }
    else if (match[2] !== undefined) yield { type: 'close', name: match[2] }
    else if (match[3] !== undefined) yield { type: 'open', name: match[3], attributes: match[4] ?? '', selfClosing: match[5] === '/' }
    else if (match[6] !== undefined) yield { type: 'text', text: decodeXmlEntities(match[6]) }
  }
}

/**
 * The value of one attribute in a tag's raw attributes.
 *
 * @example
 * ```ts
 * xmlAttribute(' type="title" idx="0"', 'type') // 'title'
 * ```
 */
export function xmlAttribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name.replace(/[.:]/g, '\\$&')}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attributes)
  const value = match?.[1] ?? match?.[2]
  return value === undefined ? undefined : decodeXmlEntities(value)
}

function decodeXmlEntities(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(/&(?:#x([0-9a-fA-F]{1,6})|#(\d{1,7})|(lt|gt|amp|quot|apos));/g, (whole, hex: string | undefined, decimal: string | undefined, name: string | undefined) => {
    if (name) return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[name as 'lt']
    const code = hex ? Number.parseInt(hex, 16) : Number(decimal)
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })
}
