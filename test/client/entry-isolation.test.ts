import { fileURLToPath } from 'node:url'
import vm from 'node:vm'
import { build } from 'esbuild'
import { beforeAll, describe, expect, it } from 'vitest'

const entry = fileURLToPath(new URL('../../src/client/index.ts', import.meta.url))

/**
 * `botshelf/client` must run in browsers and edge runtimes: bundling it for the browser must
 * succeed with nothing marked external (a `node:` import or a native module would fail to resolve),
 * and the bundle must work in a context that has only web globals (no `process`, `require`, `Buffer`).
 */
describe('botshelf/client entry isolation', () => {
  let bundle: { code: string; inputs: string[] }

  beforeAll(async () => {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      globalName: 'botshelfClient',
      write: false,
      metafile: true,
      logLevel: 'silent',
    })
    bundle = { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) }
  })

  it('bundles for the browser without server code, SQLite, Hono or native modules', () => {
    expect(bundle.inputs.some((input) => input.includes('src/client/'))).toBe(true)
    const forbidden = bundle.inputs.filter((input) =>
      /better-sqlite3|\/hono\/|@hono|server\/src\/|node:|\.node$/.test(input),
    )
    expect(forbidden).toEqual([])
    const packages = new Set(bundle.inputs.filter((i) => i.includes('node_modules/')).map((i) => i.split('node_modules/')[1]!.split('/')[0]))
    expect([...packages]).toEqual(['zod'])
  })

  it('runs with web globals only: builds requests and parses errors without process or require', async () => {
    const requests: Request[] = []
    const fakeFetch = async (request: Request) => {
      requests.push(request)
      if (request.url.includes('missing')) {
        return new Response(JSON.stringify({ id: 'err_1', code: 404, type: 'ResourceNotFound', message: 'File "missing" not found' }), {
          status: 404,
          headers: { 'content-type': 'application/json' },
        })
      }
      return new Response(JSON.stringify({ files: [], meta: {} }), { status: 200, headers: { 'content-type': 'application/json' } })
    }
    const context = vm.createContext({
      fetch: fakeFetch,
      Request,
      Response,
      Headers,
      AbortController,
      AbortSignal,
      TextEncoder,
      TextDecoder,
      ReadableStream,
      TransformStream,
      Blob,
      URL,
      crypto: globalThis.crypto,
      setTimeout,
      clearTimeout,
      console,
    })
    vm.runInContext(bundle.code, context)
    expect(vm.runInContext('typeof process + typeof require + typeof Buffer', context)).toBe('undefinedundefinedundefined')
    const outcome = await vm.runInContext(
      `(async () => {
        const { Client, ResourceNotFoundError, isApiError } = botshelfClient
        const client = new Client({ token: 'tok', botId: 'bot1', apiUrl: 'https://files.example' })
        const listed = await client.listFiles({ tags: { kind: 'doc' } })
        let error
        try { await client.getFile({ id: 'missing' }) } catch (e) { error = e }
        return { listed, isNotFound: error instanceof ResourceNotFoundError, isApi: isApiError(error), message: error && error.message }
      })()`,
      context,
    )
    expect(outcome).toEqual({ listed: { files: [], meta: {} }, isNotFound: true, isApi: true, message: 'File "missing" not found' })
    expect(requests[0]!.url).toBe('https://files.example/v1/files?tags.kind=doc')
    expect(requests[0]!.headers.get('authorization')).toBe('bearer tok')
    expect(requests[0]!.headers.get('x-bot-id')).toBe('bot1')
  })
})
