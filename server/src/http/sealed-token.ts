import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Seals a JSON payload into an opaque, URL-safe, tamper-evident string: `base64url(json).base64url(hmac)`,
 * where the HMAC-SHA256 covers a purpose label too, so a token made for one use (a cursor) is refused for
 * another (an upload URL). The payload is readable, not secret; it must carry no secrets.
 *
 * @example
 * ```ts
 * const token = sealToken(signingKey, 'cursor', { id: 'file_1' })
 * openToken(signingKey, 'cursor', token) // { id: 'file_1' }
 * ```
 */
export function sealToken(key: Buffer, purpose: string, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url')
  return `${body}.${mac(key, purpose, body)}`
}

/**
 * Opens a token made by {@link sealToken} for the same purpose; `undefined` when it was altered, made with
 * another key or for another purpose, or is not a token at all.
 *
 * @example
 * ```ts
 * openToken(signingKey, 'upload', cursorToken) // undefined
 * ```
 */
export function openToken(key: Buffer, purpose: string, token: string): unknown {
  const dot = token.indexOf('.')
  if (dot <= 0 || dot !== token.lastIndexOf('.')) return undefined
  const body = token.slice(0, dot)
  // Compare the encoded strings, not decoded bytes: base64url ignores the low bits of the last character,
  // so decoding would accept several spellings of one signature.
  const given = Buffer.from(token.slice(dot + 1), 'utf8')
  const expected = Buffer.from(mac(key, purpose, body), 'utf8')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown
  } catch {
    return undefined
  }
}

function mac(key: Buffer, purpose: string, body: string): string {
  return createHmac('sha256', key).update(`${purpose}\n${body}`).digest('base64url')
}
