import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { toBase64 } from './bytes.js'
import { computeSignature, importSigningKey, matchesAnySignature, nodeSigningKey, signWebhookPayload, webCryptoSigningKey } from './signature.js'

describe('HMAC signers', () => {
  it('Node and Web Crypto signers give the same bytes for many keys and bodies', async () => {
    for (let i = 0; i < 200; i++) {
      const key = crypto.getRandomValues(new Uint8Array(1 + (i % 64)))
      const body = crypto.getRandomValues(new Uint8Array((i * 37) % 3000))
      const prefix = `msg_${i}.${1714557600 + i}.`
      const viaNode = await nodeSigningKey(createHmac, key).sign(prefix, body)
      const viaWeb = await (await webCryptoSigningKey(key)).sign(prefix, body)
      expect(toBase64(viaNode)).toBe(toBase64(viaWeb))
    }
  })

  it('uses the synchronous Node signer when the runtime is Node', async () => {
    const key = await importSigningKey(new Uint8Array([1, 2, 3]))
    expect(key.sign('a.b.', new Uint8Array([4]))).toBeInstanceOf(Uint8Array)
  })

  it('signs as the Standard Webhooks reference does (fixed vector)', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
    const expected = createHmac('sha256', Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64'))
      .update('msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{"test": 2432232314}')
      .digest('base64')
    const signature = await signWebhookPayload({ id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: 1614265330, payload: '{"test": 2432232314}', secret })
    expect(signature).toBe(`v1,${expected}`)
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=')
  })
})

describe('matchesAnySignature', () => {
  it('refuses a signature that differs from the right one only in its last byte, or only in its first', async () => {
    const key = await importSigningKey(new Uint8Array(32).fill(9))
    const body = new TextEncoder().encode('{"type":"message"}')
    const right = await computeSignature(key, 'msg_1', '1714557600', body)
    const header = (bytes: Uint8Array) => `v1,${toBase64(bytes)}`
    expect(await matchesAnySignature([key], 'msg_1', '1714557600', body, header(right))).toBe(true)
    for (const at of [right.length - 1, 0]) {
      const wrong = right.slice()
      wrong[at] = wrong[at]! ^ 0x80
      expect(await matchesAnySignature([key], 'msg_1', '1714557600', body, header(wrong)), `byte ${at}`).toBe(false)
    }
  })
})
