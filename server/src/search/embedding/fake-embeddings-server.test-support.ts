import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A request the fake service received. */
export interface ReceivedRequest {
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: { model?: string; input?: string[] } & Record<string, unknown>
}

/** How the fake answers one request: a status, headers and a body (an object is sent as JSON). */
export interface FakeAnswer {
  status?: number
  headers?: Record<string, string>
  body?: unknown
  /** Never answer (to test timeouts). */
  hang?: boolean
}

/** A deterministic embedding of `text` in `dimension` numbers (not unit length, so normalisation is tested). */
export function fakeVector(text: string, dimension: number): number[] {
  return Array.from({ length: dimension }, (_, i) => ((text.charCodeAt(i % Math.max(1, text.length)) || 7) % 13) + i + 1)
}

/** The OpenAI answer for `input`: one embedding per text, listed in reverse to check the `index` is honoured. */
export function embeddingsAnswer(input: string[], dimension: number): FakeAnswer {
  const data = input.map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text, dimension) })).reverse()
  return { body: { object: 'list', data, model: 'fake', usage: { prompt_tokens: 1, total_tokens: 1 } } }
}

/**
 * An OpenAI-compatible `/embeddings` service on a random local port. Each request is answered by the next scripted
 * answer, or, when none is left, by a correct embeddings answer of `dimension` numbers.
 */
export async function startFakeEmbeddingsServer(dimension = 8) {
  const requests: ReceivedRequest[] = []
  const script: FakeAnswer[] = []
  const hanging: ServerResponse[] = []
  let outage: FakeAnswer | undefined
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const body = (text ? JSON.parse(text) : {}) as ReceivedRequest['body']
      requests.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body })
      const answer = outage ?? script.shift() ?? embeddingsAnswer(body.input ?? [], dimension)
      if (answer.hang) {
        hanging.push(response)
        return
      }
      const payload = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {})
      response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers })
      response.end(payload)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    /** Queues answers for the next requests, in order. */
    answer: (...answers: FakeAnswer[]) => script.push(...answers),
    /** Answers every request with `answer` until called with `undefined` (an outage, then recovery). */
    outage: (answer: FakeAnswer | undefined) => void (outage = answer),
    close: async () => {
      for (const response of hanging) response.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
