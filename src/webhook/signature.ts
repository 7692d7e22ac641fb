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

/** An HMAC-SHA256 signer for one key. Node's is synchronous; Web Crypto's answers a promise. */
export interface SigningKey {
  /** The MAC of `prefix` (UTF-8) followed by `body`. */
  sign(prefix: string, body: Uint8Array): Uint8Array | Promise<Uint8Array>
}

type CreateHmac = (algorithm: string, key: Uint8Array) => {
  update(data: string | Uint8Array): { update(data: string | Uint8Array): { digest(): Uint8Array } }
}

let nodeHmac: Promise<CreateHmac | undefined> | undefined

/**
 * Node's HMAC, loaded once, or `undefined` outside Node-compatible runtimes. The import is dynamic so that this
 * module stays runtime-neutral: a browser or worker bundle never reaches it and keeps Web Crypto.
 */
function loadNodeHmac(): Promise<CreateHmac | undefined> {
  const isNode = typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string'
  if (!isNode) return Promise.resolve(undefined)
  const specifier = 'node:crypto'
  nodeHmac ??= import(/* @vite-ignore */ /* webpackIgnore: true */ specifier).then(
    (crypto: { createHmac?: CreateHmac }) => crypto.createHmac,
    () => undefined,
  )
  return nodeHmac
}

/** A signer through Node's `createHmac`: synchronous, with no copy of the body. */
export function nodeSigningKey(createHmac: CreateHmac, key: Uint8Array): SigningKey {
  return { sign: (prefix, body) => createHmac('sha256', key).update(prefix).update(body).digest() }
}

/** A signer through Web Crypto, for runtimes without Node's crypto module. */
export async function webCryptoSigningKey(key: Uint8Array): Promise<SigningKey> {
  const cryptoKey = await globalThis.crypto.subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return {
    async sign(prefix, body) {
      const content = concatBytes([utf8(prefix), body])
      return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', cryptoKey, content as BufferSource))
    },
  }
}

/**
 * An HMAC-SHA256 signer for one key: Node's crypto where the runtime has it (about three times cheaper per
 * request than awaiting Web Crypto), Web Crypto elsewhere. Both give the same bytes.
 */
export async function importSigningKey(key: Uint8Array): Promise<SigningKey> {
  const createHmac = await loadNodeHmac()
  return createHmac ? nodeSigningKey(createHmac, key) : webCryptoSigningKey(key)
}

/** The HMAC-SHA256 of `id.timestamp.body`. */
export async function computeSignature(key: SigningKey, id: string, timestamp: string, body: Uint8Array): Promise<Uint8Array> {
  return key.sign(`${id}.${timestamp}.`, body)
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
  const prefix = `${id}.${timestamp}.`
  for (const key of keys) {
    const signed = key.sign(prefix, body)
    // Node's signer answers at once: no await (and no extra turn of the event loop) on that path.
    const expected = signed instanceof Uint8Array ? signed : await signed
    for (const candidate of provided) if (timingSafeEqual(expected, candidate)) return true
  }
  return false
}
