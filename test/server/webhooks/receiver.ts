import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request a test receiver got. */
export interface ReceivedRequest {
  path: string
  headers: Record<string, string>
  body: string
  json: any
}

/** How a receiver path answers: a status, or `'hang'` (never answers until the receiver closes). */
export type ReceiverAnswer = number | 'hang'

/**
 * A real HTTP endpoint on 127.0.0.1 that records what it receives; each path answers from a script of statuses
 * (the last one repeats; default 200).
 *
 * @example
 * ```ts
 * const receiver = await startReceiver()
 * receiver.script('/flaky', [500, 500, 200])
 * ```
 */
export async function startReceiver(): Promise<{
  url: string
  received: ReceivedRequest[]
  script(path: string, answers: ReceiverAnswer[]): void
  on(path: string): ReceivedRequest[]
  waitFor(check: () => boolean, what: string, ms?: number): Promise<void>
  close(): Promise<void>
}> {
  const received: ReceivedRequest[] = []
  const scripts = new Map<string, ReceiverAnswer[]>()
  const hanging: ServerResponse[] = []
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const path = req.url ?? '/'
      received.push({ path, headers: req.headers as Record<string, string>, body, json: body ? JSON.parse(body) : undefined })
      const script = scripts.get(path) ?? [200]
      const answer = script.length > 1 ? script.shift()! : script[0]!
      if (answer === 'hang') {
        hanging.push(res)
        return
      }
      res.writeHead(answer).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    script: (path, answers) => void scripts.set(path, [...answers]),
    on: (path) => received.filter((request) => request.path === path),
    async waitFor(check, what, ms = 15_000) {
      const deadline = Date.now() + ms
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    },
    async close() {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
