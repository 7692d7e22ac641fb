import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A chat request the fake service received. */
export interface ReceivedChatRequest {
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: {
    model?: string
    messages?: Array<{ role: string; content: unknown }>
    response_format?: { type: string; json_schema?: { name: string; schema: Record<string, unknown> } }
    max_tokens?: number
    temperature?: number
  } & Record<string, unknown>
}

/** How the fake answers one request: a status, headers and a body (an object is sent as JSON). */
export interface FakeChatAnswer {
  status?: number
  headers?: Record<string, string>
  body?: unknown
  /** Never answer (to test timeouts). */
  hang?: boolean
  /** Answer after this many milliseconds (real time: for benches and concurrency tests). */
  delayMs?: number
}

/** The OpenAI chat-completion body whose first choice says `text`. */
export function chatCompletion(text: string, model = 'fake-chat'): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
  }
}

/** The text of the last user message of a request (parts joined), for replies that depend on the prompt. */
export function lastUserText(body: ReceivedChatRequest['body']): string {
  const user = [...(body.messages ?? [])].reverse().find((message) => message.role === 'user')
  if (!user) return ''
  if (typeof user.content === 'string') return user.content
  return Array.isArray(user.content) ? user.content.map((part: { text?: string }) => part.text ?? '').join('') : ''
}

/**
 * An OpenAI-compatible `/chat/completions` service on a random local port, scriptable: `answer(...)` queues answers
 * for the next requests; `outage(answer)` answers every request the same way until `outage(undefined)`; `reply(fn)`
 * sets the answer when nothing is queued (default: `"ok"`); `delayMs` on an answer delays it, `hang` never answers;
 * `pause()` holds every answer until `resume()`.
 *
 * @example
 * ```ts
 * const fake = await startFakeChatServer()
 * fake.reply((request) => chatCompletion(lastUserText(request).includes('love') ? 'positive' : 'negative'))
 * fake.outage({ status: 503, headers: { 'retry-after': '1' } })
 * ```
 */
export async function startFakeChatServer() {
  const requests: ReceivedChatRequest[] = []
  const script: FakeChatAnswer[] = []
  const hanging: ServerResponse[] = []
  const timers = new Set<NodeJS.Timeout>()
  let outage: FakeChatAnswer | undefined
  let reply: (request: ReceivedChatRequest['body']) => FakeChatAnswer | Record<string, unknown> = () => chatCompletion('ok')
  let inFlight = 0
  let mostInFlight = 0
  // While paused, requests are received (and recorded) but answered only on resume.
  let paused: Array<() => void> | undefined
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      let body: ReceivedChatRequest['body']
      try {
        body = (text ? JSON.parse(text) : {}) as ReceivedChatRequest['body']
      } catch {
        response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'body is not JSON' } }))
        return
      }
      requests.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body })
      const scripted = outage ?? script.shift()
      const answer: FakeChatAnswer = scripted ?? asAnswer(reply(body))
      if (answer.hang) {
        hanging.push(response)
        return
      }
      inFlight += 1
      mostInFlight = Math.max(mostInFlight, inFlight)
      const send = () => {
        inFlight -= 1
        const payload = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {})
        response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers })
        response.end(payload)
      }
      if (paused) {
        paused.push(send)
        return
      }
      if (answer.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer)
          send()
        }, answer.delayMs)
        timers.add(timer)
      } else send()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    /** Queues answers for the next requests, in order. */
    answer: (...answers: FakeChatAnswer[]) => void script.push(...answers),
    /** Answers every request with `answer` until called with `undefined` (an outage, then recovery). */
    outage: (answer: FakeChatAnswer | undefined) => void (outage = answer),
    /** How requests are answered when nothing is queued: a completion body (`chatCompletion(...)`) or a full answer. */
    reply: (fn: (request: ReceivedChatRequest['body']) => FakeChatAnswer | Record<string, unknown>) => void (reply = fn),
    /** Holds every answer (requests are still received and recorded) until `resume()`. */
    pause: () => void (paused ??= []),
    /** Sends the held answers and answers at once again. */
    resume: () => {
      const held = paused ?? []
      paused = undefined
      for (const send of held) send()
    },
    /** The most requests answered at the same time (those with `delayMs` or held). */
    mostInFlight: () => mostInFlight,
    close: async () => {
      for (const timer of timers) clearTimeout(timer)
      paused = undefined
      for (const response of hanging) response.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** A reply function's result as an answer: a completion body is wrapped; an answer (with `status`/`body`/…) is kept. */
function asAnswer(value: FakeChatAnswer | Record<string, unknown>): FakeChatAnswer {
  return 'choices' in value ? { body: value } : (value as FakeChatAnswer)
}
