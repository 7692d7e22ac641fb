import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { seededRandom } from '../testing/seeded-random.js'
import { builtInPayloadSchemas } from './built-in-payloads.js'
import { compilePayloadCheck } from './payload-check.js'
import { isPlainWebUrl } from './plain-web-url.js'

const zodUrl = z.url()
/** What `z.url()` accepts: the reference the recognizer must never be looser than. */
const acceptedByZod = (value: string) => zodUrl.safeParse(value).success

/** Valid URLs the recognizer reads (it is only useful if the common ones are among them). */
const plain = [
  'https://example.com',
  'https://example.com/',
  'http://example.com/a.png',
  'https://cdn.example.co.uk/images/2024/05/a-b_c.png?size=2&x=%20#top',
  'https://EXAMPLE.com/Path',
  'https://a.b',
  'https://x1.y2z/',
  'https://my-site.example/a\\b',
  'https://example.com?q=1',
  'https://example.com#frag',
  `https://${'a'.repeat(63)}.com/`,
]

/** Edge cases: some valid, some not; the recognizer must refuse each one (zod then decides). */
const leftToZod = [
  'https://127.0.0.1/', // an IPv4 address
  'https://1.2.3.999/', // ends in a number the IPv4 parser refuses
  'http://0x7f.1/', // hexadecimal IPv4
  'https://example.123/', // last label numeric: read as IPv4, refused by the parser
  'https://example.0x1f/',
  'https://xn--a.com/', // punycode to decode (invalid here)
  'https://xn--bcher-kva.example/', // punycode (valid)
  'https://a--b.com/',
  'https://a..b/', // empty label
  'https://.a/',
  'https://a./', // trailing dot
  'https://-a.com/',
  'https://a-.com/',
  'https://example.com:8080/', // a port
  'https://example.com:99999/', // a port out of range
  'https://user@example.com/', // userinfo
  'https://user:pass@example.com/',
  'https://[::1]/', // IPv6
  'https://exa_mple.com/',
  'https://exa%41mple.com/',
  'https://例え.jp/', // international name
  'https://example.com/ä', // non-ASCII path
  'https://example.com/a b', // space
  ' https://example.com/', // spaces zod trims
  'https://example.com/ ',
  'https://example.com/\n',
  'https://exa\nmple.com/',
  'https://exa\tmple.com/',
  'HTTPS://EXAMPLE.COM/', // uppercase scheme
  'http:example.com', // no slashes
  'https:/example.com',
  'https:///example.com',
  'https://',
  'http://',
  'https:// example.com',
  'https://example.com\\..\\a',
  'https:\\\\example.com',
  'ftp://example.com/',
  'mailto:a@b.c',
  'not a url',
  '',
  `https://${'a'.repeat(64)}.com/`, // a label longer than DNS allows
  `https://${'a.'.repeat(127)}com/`, // a host longer than DNS allows
  'https://example.com/\u0000',
  'https://example.com\u0000/',
  'https://a.b\u00a0/',
]

describe('isPlainWebUrl', () => {
  it('reads the common web URLs, every one valid for the URL parser and for z.url()', () => {
    for (const url of plain) {
      expect(isPlainWebUrl(url), url).toBe(true)
      expect(URL.canParse(url), url).toBe(true)
      expect(acceptedByZod(url), url).toBe(true)
    }
  })

  it('leaves every edge case to zod (IP addresses, punycode, ports, userinfo, spaces, odd schemes)', () => {
    for (const url of leftToZod) expect(isPlainWebUrl(url), JSON.stringify(url)).toBe(false)
  })

  it('never accepts a string that z.url() refuses (generated near-URLs)', () => {
    const random = seededRandom(1225)
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
    const schemes = ['https://', 'http://', 'https:/', 'https:', 'HTTP://', 'https:\\\\', 'ftp://', '']
    const usualParts = ['a', 'example', 'com', 'b-c', 'Z9', 'x1', 'f0']
    const oddParts = ['1', '255', '999', '0x1f', '0X1F', 'xn--', 'XN--bcher-kva', '-', '--', '.', '..', '_', 'ß', '例', '%41', '@', ':', ':80', ':99999', '[', ']', '::1', ' ', '\t', '\n', '\u0000', '\u00a0']
    const rest = ['', '/', '/a.png', '?q=1', '#f', '/a b', '/\u00e4', '\\', '/%zz', '/\u0000', ' ', '\n', '/a?b#c', '/~!$&\'()*+,;=:@[]{}|^`"<>']
    let accepted = 0
    for (let i = 0; i < 30_000; i++) {
      let host = ''
      const parts = 1 + Math.floor(random() * 5)
      for (let p = 0; p < parts; p++) host += (p > 0 && random() < 0.7 ? '.' : '') + pick(random() < 0.85 ? usualParts : oddParts)
      const url = (random() < 0.7 ? pick(schemes.slice(0, 2)) : pick(schemes)) + host + pick(rest)
      if (!isPlainWebUrl(url)) continue
      accepted++
      expect(URL.canParse(url), JSON.stringify(url)).toBe(true)
      expect(acceptedByZod(url), JSON.stringify(url)).toBe(true)
    }
    expect(accepted).toBeGreaterThan(1000)
  })

  it('keeps the payload checks of URL fields equal to the schema on the edge cases', () => {
    const check = compilePayloadCheck(builtInPayloadSchemas.image)
    for (const imageUrl of [...plain, ...leftToZod]) {
      const payload = { imageUrl }
      expect(check(payload), JSON.stringify(imageUrl)).toBe(builtInPayloadSchemas.image.safeParse(payload).success)
    }
  })
})
