/**
 * Events and webhooks benchmark: `npx tsx bench/events.bench.ts [--seconds 2] [--rounds 3]`.
 *
 * 1. Events validated per second through botshelf's zod `EventSchema`, beside an ajv-compiled validator of the
 *    equivalent JSON Schema (the baseline), on the same mix of valid events, in the same run.
 * 2. Webhook requests handled per second in process by `createWebhookHandler` (size limit, HMAC signature,
 *    timestamp, dedupe, JSON, schema, dispatch through one hook), beside a bare handler that only reads and
 *    parses the JSON body (the baseline).
 * 3. The same webhook requests beside their primitives (the baseline): read the body, HMAC-SHA256 it with
 *    node:crypto, `JSON.parse`, `parseEvent`, answer.
 * Each measurement runs for a fixed time; rounds alternate the order and the median round is kept. Prints a
 * Markdown table for bench/README.md and `RATIO` lines for `npm run bench`.
 */
import { createHmac } from 'node:crypto'
import { cpus } from 'node:os'
import { performance } from 'node:perf_hooks'
import AjvModule from 'ajv'
import { z } from 'zod'
import { builtInPayloadSchemas, createRuntime, createWebhookHandler, defineHook, EventSchema, parseEvent, safeParseEvent } from '../src/index.js'
import { createMemoryLogger, fakeEvent, fakeImageEvent, fakeTextEvent, signWebhookRequest } from '../src/testing/index.js'
import { printRatio } from './report/index.js'

const argValue = (name: string, fallback: number) => {
  const index = process.argv.indexOf(name)
  return index > 0 ? Number(process.argv[index + 1]) : fallback
}
const SECONDS = argValue('--seconds', 2)
const ROUNDS = argValue('--rounds', 3)

// --- the equivalent JSON Schema --------------------------------------------------------------------------------
const openRecord = { type: 'object' }
const stringMap = { type: 'object', additionalProperties: { type: 'string' } }
const ISO_WITH_OFFSET = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}(:?\\d{2})?)$'
const payloadRules = Object.entries(builtInPayloadSchemas).map(([type, schema]) => {
  const { $schema: _ignored, ...payload } = z.toJSONSchema(schema) as Record<string, unknown>
  return { if: { properties: { type: { const: type } } }, then: { properties: { payload } } }
})
const eventJsonSchema = {
  type: 'object',
  required: ['botId', 'createdOn', 'direction', 'id', 'payload', 'preview', 'state', 'type'],
  properties: {
    botId: { type: 'string' },
    conversationId: { type: 'string' },
    createdOn: { type: 'string', pattern: ISO_WITH_OFFSET },
    direction: { enum: ['incoming', 'outgoing'] },
    id: { type: 'string' },
    integration: { type: 'string' },
    kb: { type: 'object', required: ['included'], properties: { included: { type: 'array', items: openRecord }, results: { type: 'array', items: openRecord } } },
    messageId: { type: 'string' },
    payload: openRecord,
    preview: { type: 'string' },
    state: openRecord,
    tags: { type: 'object', properties: { conversation: stringMap, message: stringMap, user: stringMap } },
    trigger: {
      type: 'object',
      required: ['flowId', 'nodeId'],
      properties: Object.fromEntries(['conversationId', 'eventName', 'flowId', 'integration', 'nodeId', 'userId'].map((k) => [k, { type: 'string' }])),
    },
    type: { type: 'string' },
    userId: { type: 'string' },
  },
  allOf: payloadRules,
}
// ajv is CommonJS: under NodeNext its default import is the module object, the class is its `default`.
const Ajv = AjvModule.default
const ajv = new Ajv({ allErrors: true, formats: { uri: /^[a-z][a-z0-9+.-]*:[^\s]*$/i } })
const ajvValidate = ajv.compile(eventJsonSchema)

// --- inputs: JSON as it arrives on the wire ----------------------------------------------------------------------
const wire = (event: unknown) => JSON.parse(JSON.stringify(event)) as unknown
const inputs = [
  wire(fakeTextEvent('Where is my refund?', { tags: { conversation: { topic: 'billing' }, user: { plan: 'pro' } } })),
  wire(fakeImageEvent({ title: 'receipt' }, { trigger: { flowId: 'flow_1', nodeId: 'node_1' } })),
  wire(fakeEvent({ type: 'custom', payload: { a: 1, b: [1, 2, 3] }, kb: { included: [{ id: 'kb_1' }], results: [{ score: 0.8 }] } })),
  wire(fakeEvent({ direction: 'outgoing', createdOn: '2024-05-01T12:00:00.123+02:00' })),
]
for (const input of inputs) {
  if (!EventSchema.safeParse(input).success || !ajvValidate(input)) throw new Error('bench inputs must be valid for both validators')
}
const invalid = { ...(inputs[0] as object), direction: 'sideways' }
if (EventSchema.safeParse(invalid).success || ajvValidate(invalid)) throw new Error('both validators must refuse the invalid input')

// --- measurement -------------------------------------------------------------------------------------------------
function rateSync(fn: (i: number) => void): number {
  for (let i = 0; i < 2000; i++) fn(i) // warm-up
  let count = 0
  const end = performance.now() + SECONDS * 1000
  const started = performance.now()
  while (performance.now() < end) {
    for (let i = 0; i < 200; i++) fn(count++)
  }
  return count / ((performance.now() - started) / 1000)
}

async function rateAsync(prepare: (n: number) => Promise<Request[]>, handle: (r: Request) => Promise<Response>): Promise<number> {
  const warm = await prepare(300)
  for (const request of warm) await handle(request)
  const batch = 500
  let count = 0
  let spent = 0
  while (spent < SECONDS * 1000) {
    const requests = await prepare(batch) // signing is the sender's cost: not timed
    const started = performance.now()
    for (const request of requests) {
      const response = await handle(request)
      if (response.status !== 200) throw new Error(`unexpected ${response.status}: ${await response.text()}`)
    }
    spent += performance.now() - started
    count += batch
  }
  return count / (spent / 1000)
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const zodRates: number[] = []
const ajvRates: number[] = []
const parseRates: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  const runs = [
    () => zodRates.push(rateSync((i) => void EventSchema.safeParse(inputs[i % inputs.length]))),
    () => ajvRates.push(rateSync((i) => void ajvValidate(inputs[i % inputs.length]))),
    () => parseRates.push(rateSync((i) => void safeParseEvent(inputs[i % inputs.length]))),
  ]
  if (round % 2 === 1) runs.reverse()
  for (const run of runs) run()
}
const zodInvalid = rateSync(() => void EventSchema.safeParse(invalid))
const ajvInvalid = rateSync(() => void ajvValidate(invalid))

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const runtime = createRuntime({
  hooks: [defineHook({ name: 'count', point: 'afterIncoming', handler: () => undefined })],
  logger: createMemoryLogger(),
})
const webhook = createWebhookHandler({ runtime, secret })
const bare = async (request: Request) => {
  JSON.parse(await request.text())
  return new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } })
}
const secretKey = Buffer.from(secret.slice('whsec_'.length), 'base64')
const primitives = async (request: Request) => {
  const text = await request.text()
  const mac = createHmac('sha256', secretKey)
    .update(`${request.headers.get('webhook-id')}.${request.headers.get('webhook-timestamp')}.`)
    .update(text)
    .digest('base64')
  if (!request.headers.get('webhook-signature')?.includes(mac)) throw new Error('primitives: signature mismatch')
  parseEvent(JSON.parse(text))
  return new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } })
}
const body = JSON.stringify(inputs[0])
const prepare = async (n: number) => Array.from({ length: n }, () => signWebhookRequest({ payload: body, secret }))
const webhookRates: number[] = []
const bareRates: number[] = []
const primitiveRates: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  const runs = [
    async () => webhookRates.push(await rateAsync(prepare, webhook)),
    async () => bareRates.push(await rateAsync(prepare, bare)),
    async () => primitiveRates.push(await rateAsync(prepare, primitives)),
  ]
  if (round % 2 === 1) runs.reverse()
  for (const run of runs) await run()
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const zod = median(zodRates)
const ajvRate = median(ajvRates)
const parseRate = median(parseRates)
const hook = median(webhookRates)
const bareRate = median(bareRates)
const primitiveRate = median(primitiveRates)
console.log(`Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${new Date().toISOString().slice(0, 10)}, ${SECONDS} s x ${ROUNDS} rounds, median\n`)
console.log('| measurement | botshelf | baseline | ratio (botshelf / baseline) |')
console.log('|---|---:|---:|---:|')
console.log(`| valid events validated per second (zod EventSchema vs ajv compiled JSON Schema) | ${fmt(zod)} | ${fmt(ajvRate)} | ${(zod / ajvRate).toFixed(3)} |`)
console.log(`| valid events validated per second (safeParseEvent: direct check of the common valid event, zod otherwise, vs ajv) | ${fmt(parseRate)} | ${fmt(ajvRate)} | ${(parseRate / ajvRate).toFixed(3)} |`)
console.log(`| invalid events refused per second (same pair) | ${fmt(zodInvalid)} | ${fmt(ajvInvalid)} | ${(zodInvalid / ajvInvalid).toFixed(3)} |`)
console.log(`| webhook requests handled per second in process (createWebhookHandler vs bare read + JSON.parse) | ${fmt(hook)} | ${fmt(bareRate)} | ${(hook / bareRate).toFixed(3)} |`)
console.log(`| webhook requests handled per second in process (createWebhookHandler vs its primitives: read, node:crypto HMAC, JSON.parse, parseEvent) | ${fmt(hook)} | ${fmt(primitiveRate)} | ${(hook / primitiveRate).toFixed(3)} |`)

printRatio({ bench: 'events', row: 'valid events validated (safeParseEvent) vs ajv-compiled JSON Schema', botshelf: parseRate, baseline: ajvRate, unit: 'events/s', goal: 0.2 })
printRatio({ bench: 'events', row: 'valid events validated (zod EventSchema alone) vs ajv', botshelf: zod, baseline: ajvRate, unit: 'events/s' })
printRatio({ bench: 'events', row: 'invalid events refused (zod, with issues) vs ajv', botshelf: zodInvalid, baseline: ajvInvalid, unit: 'events/s' })
printRatio({ bench: 'events', row: 'webhook request in process vs its primitives', botshelf: hook, baseline: primitiveRate, unit: 'req/s', goal: 0.5 })
printRatio({ bench: 'events', row: 'webhook request in process vs bare read + JSON.parse', botshelf: hook, baseline: bareRate, unit: 'req/s' })
