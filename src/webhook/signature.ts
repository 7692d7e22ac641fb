import { concatBytes, fromBase64, timingSafeEqual, toBase64, utf8 } from './bytes.js'
import { WebhookConfigError } from './errors.js'

/** Prefix of Standard Webhooks secrets. */
export const SECRET_PREFIX = 'whsec_'

/** One or several secrets (several during a rotation: a request signed with any of them is accepted). */
export type WebhookSecret = string | readonly string[]

/**
 * Decodes a Standard Webhooks secret: `whsec_` followed by base64 (the prefix is optional, as in the reference
 * libraries). Throws `WebhookConfigError` for an empty or non-base64 secret; there is no default secret.
 */
export function decodeSecret(secret: unknown): Uint8Array {
  if (typeof secret !== 'string' || secret.trim() === '') {
    throw new WebhookConfigError('secret: expected a non-empty string (whsec_<base64>), received ' + describe(secret))
  }
  const body = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret
  const key = fromBase64(body)
  if (!key || key.length === 0) {
    throw new WebhookConfigError('secret: expected whsec_ followed by base64, received a value that is not base64')
  }
  return key
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing'
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a blank string'
  return typeof value
}

/** Decodes every secret of the option; throws when the list is empty or one of them is invalid. */
export function decodeSecrets(secret: WebhookSecret | undefined): Uint8Array[] {
  const list = typeof secret === 'string' || secret === undefined ? [secret] : [...secret]
  if (list.length === 0) throw new WebhookConfigError('secret: expected at least one secret, received an empty list')
  return list.map(decodeSecret)
}

/**
 * A Web Crypto HMAC key, typed by the few members we rely on rather than by the DOM lib's `CryptoKey`, so the
 * published declarations compile in a Node project without the DOM lib.
 */
export interface SigningKey {
  readonly type: string
  readonly algorithm: object
}

/** An HMAC-SHA256 signer for one key, through Web Crypto (no native module). */
export async function importSigningKey(key: Uint8Array): Promise<SigningKey> {
  return globalThis.crypto.subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
}

/** The HMAC-SHA256 of `id.timestamp.body`. */
export async function computeSignature(key: SigningKey, id: string, timestamp: string, body: Uint8Array): Promise<Uint8Array> {
  const content = concatBytes([utf8(`${id}.${timestamp}.`), body])
  // Every SigningKey comes from importSigningKey, so it is a real CryptoKey.
  return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key as CryptoKey, content as BufferSource))
}

/**
 * The value of a `webhook-signature` header for a payload: `v1,<base64>`.
 *
 * @example
 * ```ts
 * const signature = await signWebhookPayload({ id: 'msg_1', timestamp: 1714557600, payload: body, secret })
 * ```
 */
export async function signWebhookPayload(options: {
  /** The message id, sent as `webhook-id`: `id: 'msg_1'`. */
  id: string
  /** Unix seconds, sent as `webhook-timestamp`: `timestamp: Math.floor(Date.now() / 1000)`. */
  timestamp: number | string
  /** The exact body bytes (a string is UTF-8 encoded): `payload: JSON.stringify(event)`. */
  payload: string | Uint8Array
  /** The shared secret, `whsec_` + base64: `secret: process.env.WEBHOOK_SECRET!`. */
  secret: string
}): Promise<string> {
  const key = await importSigningKey(decodeSecret(options.secret))
  const body = typeof options.payload === 'string' ? utf8(options.payload) : options.payload
  return `v1,${toBase64(await computeSignature(key, options.id, String(options.timestamp), body))}`
}

/** The `v1` signatures of a `webhook-signature` header (space-separated `version,base64` pairs), decoded. */
export function parseSignatureHeader(header: string): Uint8Array[] {
  const signatures: Uint8Array[] = []
  for (const part of header.split(' ')) {
    const comma = part.indexOf(',')
    if (comma < 0 || part.slice(0, comma) !== 'v1') continue
    const bytes = fromBase64(part.slice(comma + 1))
    if (bytes) signatures.push(bytes)
  }
  return signatures
}

/** True when one of the header's signatures matches the payload under one of the keys (constant-time compare). */
export async function matchesAnySignature(
  keys: readonly SigningKey[],
  id: string,
  timestamp: string,
  body: Uint8Array,
  signatureHeader: string,
): Promise<boolean> {
  const provided = parseSignatureHeader(signatureHeader)
  if (provided.length === 0) return false
  for (const key of keys) {
    const expected = await computeSignature(key, id, timestamp, body)
    for (const candidate of provided) if (timingSafeEqual(expected, candidate)) return true
  }
  return false
}
