import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, type BotshelfApp } from '../../server/src/http/app.js'
import { silentLogger } from '../../server/src/http/logger.js'

describe('the console static handler at /console', () => {
  let dir: string
  let app: BotshelfApp
  let bare: BotshelfApp
  const get = (target: BotshelfApp, path: string, headers: Record<string, string> = {}) => target.fetch(new Request(`http://botshelf.test${path}`, { headers }))

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'botshelf-console-static-'))
    await mkdir(join(dir, 'assets'))
    await writeFile(join(dir, 'index.html'), '<!doctype html><script type="module" src="assets/app-ABCD1234.js"></script>')
    await writeFile(join(dir, 'assets', 'app-ABCD1234.js'), 'console.log("console")')
    await writeFile(join(dir, 'assets', 'app-ABCD1234.css'), 'body{}')
    await writeFile(join(dir, 'secret.txt'), 'not an asset')
    app = await createApp({ memory: true, logger: silentLogger, consoleDir: dir, publicUrl: 'https://files.example.com' })
    bare = await createApp({ memory: true, logger: silentLogger, consoleDir: join(dir, 'missing') })
  })
  afterAll(async () => {
    await app.close()
    await bare.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('serves index.html with the strict CSP, nosniff, no-cache and an ETag that answers 304', async () => {
    const res = await get(app, '/console/')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const csp = res.headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("script-src 'self';")
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).toContain("frame-ancestors 'none'")
    // Content URLs are built on --public-url: previews may load from it.
    expect(csp).toContain("img-src 'self' https://files.example.com")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('cache-control')).toBe('no-cache')
    expect(await res.text()).toContain('assets/app-ABCD1234.js')
    const again = await get(app, '/console/', { 'if-none-match': res.headers.get('etag')! })
    expect(again.status).toBe(304)
  })

  it('redirects /console to /console/ so relative asset paths resolve', async () => {
    const res = await get(app, '/console')
    expect(res.status).toBe(308)
    expect(res.headers.get('location')).toBe('/console/')
  })

  it('serves hashed assets as immutable with their type, and nothing else from the folder', async () => {
    const js = await get(app, '/console/assets/app-ABCD1234.js')
    expect(js.status).toBe(200)
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(js.headers.get('x-content-type-options')).toBe('nosniff')
    expect((await get(app, '/console/assets/app-ABCD1234.css')).headers.get('content-type')).toBe('text/css; charset=utf-8')

    for (const path of ['/console/assets/..%2Fsecret.txt', '/console/assets/secret.txt', '/console/assets/app-NOPE9999.js', '/console/secret.txt']) {
      const res = await get(app, path)
      expect(res.status, path).toBe(404)
      expect(await res.text()).not.toContain('not an asset')
    }
    const missing = await get(app, '/console/assets/app-NOPE9999.js')
    expect(await missing.json()).toMatchObject({ type: 'ResourceNotFound', message: expect.stringContaining('older build') })
  })

  it('says how to build the console when it was not built', async () => {
    const res = await get(bare, '/console/')
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ type: 'ResourceNotFound', message: expect.stringContaining('npm run build') })
  })
})
