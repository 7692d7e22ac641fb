import type { FuzzRandom } from './fuzz-random.js'

/** Names that exist on `Object.prototype` or are special to JavaScript objects. */
export const prototypeNames = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf'] as const

/** Numbers at the edges: huge, tiny, negative zero, past 2^53, and numbers written in ways JSON allows. */
const hugeNumberLiterals = ['1e400', '-1e400', '1e-400', '-0', '9007199254740993', '18446744073709551616', '123456789012345678901234567890', '0.000000000000000000000000000001', '1E+308', '4.9e-324']

/** Strings that stress decoding, normalisation and length handling. */
const oddStrings = [
  '',
  ' ',
  '\u0000',
  '\u0000\u0001\u001f',
  '\ud800',
  '\udfff\ud800',
  'a\u0301',
  '\u202e\u202dreversed',
  '🤖'.repeat(50),
  '\ufeffBOM',
  '%00%ff%fe',
  '../../etc/passwd',
  '..\\..\\windows',
  '<script>alert(1)</script>',
  "'; DROP TABLE files; --",
  '${jndi:ldap://x}',
  '\r\nX-Injected: 1',
  'x'.repeat(5000),
  'é'.repeat(3000),
  '(.*a){1000}',
  '((((((((((a*)*)*)*)*)*)*)*)*)*)',
]

/** One string from the odd list or made of random code points, sometimes long. */
export function hostileString(random: FuzzRandom): string {
  if (random.chance(0.5)) return random.pick(oddStrings)
  if (random.chance(0.2)) return random.pick(prototypeNames)
  const length = random.chance(0.1) ? random.int(1000, 20_000) : random.int(0, 40)
  let text = ''
  for (let i = 0; i < length; i++) {
    const kind = random.int(0, 9)
    const code = kind < 6 ? random.int(0x20, 0x7e) : kind < 8 ? random.int(0x80, 0x7ff) : kind < 9 ? random.int(0, 0x1f) : random.int(0xd800, 0xdfff)
    text += String.fromCharCode(code)
  }
  return text
}

/** JSON text of a value nested `depth` levels deep (objects or arrays), built without recursion. */
export function deepJsonText(depth: number, useArrays: boolean, key = 'a'): string {
  return useArrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${`{"${key}":`.repeat(depth)}1${'}'.repeat(depth)}`
}

/** An object with many keys (`width` of them), some prototype-named. */
export function wideObject(random: FuzzRandom, width: number): Record<string, unknown> {
  const object: Record<string, unknown> = {}
  for (let i = 0; i < width; i++) object[random.chance(0.01) ? random.pick(prototypeNames.filter((n) => n !== '__proto__')) : `k${i}`] = random.chance(0.5) ? i : `v${i}`
  return object
}

/** A random JSON value (as a JS value): scalars, odd strings, small containers. */
export function hostileValue(random: FuzzRandom, depth = 0): unknown {
  const kind = random.int(0, depth > 3 ? 6 : 9)
  switch (kind) {
    case 0:
      return null
    case 1:
      return random.chance(0.5)
    case 2:
      return random.pick([0, -1, 1.5, Number.MAX_SAFE_INTEGER, -Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 63, 1e21])
    case 3:
    case 4:
    case 5:
    case 6:
      return hostileString(random)
    case 7:
      return Array.from({ length: random.int(0, 5) }, () => hostileValue(random, depth + 1))
    default: {
      const object: Record<string, unknown> = {}
      for (let i = random.int(0, 5); i > 0; i--) object[random.chance(0.2) ? random.pick(prototypeNames) : hostileString(random).slice(0, 20)] = hostileValue(random, depth + 1)
      return object
    }
  }
}

/**
 * Replaces one JSON value inside a JSON text with something JSON cannot say in JavaScript terms: a huge number
 * literal, a deep nest, raw invalid UTF-8 bytes. Returns bytes, since some mutations are not valid text.
 */
export function mutateJsonText(random: FuzzRandom, text: string): Uint8Array {
  const encoder = new TextEncoder()
  const choice = random.int(0, 9)
  if (choice === 0) return encoder.encode(text.slice(0, random.int(0, text.length))) // truncated
  if (choice === 1) {
    const bytes = encoder.encode(text)
    const at = random.int(0, bytes.length)
    const invalid = random.pick([[0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc0, 0xaf]])
    return Uint8Array.from([...bytes.subarray(0, at), ...invalid, ...bytes.subarray(at)])
  }
  if (choice === 2) return encoder.encode(text.replace(/:\s*("[^"]*"|\d+|true|false|null)/, `:${random.pick(hugeNumberLiterals)}`))
  if (choice === 3) return encoder.encode(text.replace(/:\s*("[^"]*"|\d+|true|false|null)/, `:${deepJsonText(random.int(65, 5000), random.chance(0.5))}`))
  if (choice === 4) return encoder.encode(text.replace('{', `{"__proto__":{"polluted":true},`))
  if (choice === 5) return encoder.encode(`${text}${text}`) // two documents
  if (choice === 6) return encoder.encode(`\ufeff${text}`)
  if (choice === 7) return encoder.encode(text.replace(/"([^"]+)":/, (_, key: string) => `"${key}\\u0000":`))
  if (choice === 8) return encoder.encode(JSON.stringify(hostileValue(random)))
  return encoder.encode(text.replace(/"([^"]*)"/, `"${'\\ud800'}"`))
}
