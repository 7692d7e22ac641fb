/**
 * Events and webhooks benchmark: `npx tsx bench/events.bench.ts [--seconds 2] [--rounds 3]`.
 *
 * 1. Events validated per second through botshelf's zod `EventSchema`, beside an ajv-compiled validator of the
 *    equivalent JSON Schema (the baseline), on the same mix of valid events, in the same run.
 * 2. Webhook requests handled per second in process by `createWebhookHandler` (size limit, HMAC signature,
 *    timestamp, dedupe, JSON, schema, dispatch through one hook), beside a bare handler that only reads and
 *    parses the JSON body (the baseline).
 * 3. The same webhook requests beside their primitives (the issue's baseline): read the body, HMAC-SHA256 it with
 *    node:crypto, `JSON.parse`, `parseEvent`, answer.
 * The `safeParseEvent` row is also given per second of the process's CPU time in the same slices, which the load of
 * a shared machine moves less than the clock.
 * In each round the contenders take turns in short slices for `--seconds` each (order rotating), and the median
 * over the rounds is kept. Prints a
 * Markdown table for bench/README.md and `RATIO` lines for `npm run bench`.
 */
import { createHmac } from 'node:crypto'
import { cpus } from 'node:os'
import { performance } from 'node:perf_hooks'
import AjvModule from 'ajv'
import { z } from 'zod'
import { builtInPayloadSchemas, createRuntime, createWebhookHandler, defineHook, EventSchema, parseEvent, safeParseEvent } from '../src/index.js'
import { createMemoryLogger, fakeEvent, fakeImageEvent, fakeTextEvent, fakeUntypedEvent, signWebhookRequest } from '../src/testing/index.js'
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
  wire(fakeUntypedEvent('custom', { a: 1, b: [1, 2, 3] }, { kb: { included: [{ id: 'kb_1' }], results: [{ score: 0.8 }] } })),
  wire(fakeEvent({ direction: 'outgoing', createdOn: '2024-05-01T12:00:00.123+02:00' })),
]
for (const input of inputs) {
  if (!EventSchema.safeParse(input).success || !ajvValidate(input)) throw new Error('bench inputs must be valid for both validators')
}
const invalid = { ...(inputs[0] as object), direction: 'sideways' }
if (EventSchema.safeParse(invalid).success || ajvValidate(invalid)) throw new Error('both validators must refuse the invalid input')

// Refused shapes, as senders get them wrong (issue 23): each must be refused by both validators.
const base = inputs[0] as Record<string, unknown>
const { createdOn: _createdOn, ...withoutCreatedOn } = base
const { botId: _botId, ...withoutBotId } = base
const refusedShapes: Record<string, unknown> = {
  'direction "sideways"': { ...base, direction: 'sideways' },
  'text payload with a number': { ...base, payload: { text: 42 } },
  'createdAt for createdOn (Cloud API)': { ...withoutCreatedOn, createdAt: base['createdOn'] },
  'body wrapping the event ({ event })': { event: base },
  'three faults (no botId, bad tag value, bad direction)': { ...withoutBotId, direction: 1, tags: { conversation: { topic: 5 } } },
}
for (const [name, shape] of Object.entries(refusedShapes)) {
  if (safeParseEvent(shape).success || ajvValidate(shape)) throw new Error(`both validators must refuse: ${name}`)
}

// --- measurement -------------------------------------------------------------------------------------------------
// The contenders of a measurement take turns in slices of about 50 ms (the order rotating every cycle) for the
// whole measurement, and each one's time is summed: a change of the machine's load then hits all of them alike,
// where one long run after another let a busy second favour one side (this machine is shared). A slice is long
// enough for each contender to run hot, as in a tight loop: slices of a fraction of a millisecond made the ajv
// baseline 4 times slower (its code and data no longer stayed in the CPU caches), which would flatter botshelf.

const SLICE_MS = 50
const ASYNC_BATCH = 500

/**
 * Rates per second of synchronous contenders, interleaved in slices: `name` per second of the clock, and
 * `name:cpu` per second of the process's CPU time in the same slices (time the process spent waiting for a core
 * on the loaded machine is not in it).
 */
function interleavedSync(contenders: Record<string, (i: number) => void>): Record<string, number> {
  const names = Object.keys(contenders)
  for (const name of names) for (let i = 0; i < 2000; i++) contenders[name]!(i) // warm-up
  const spent: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]))
  const cpuSpent: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]))
  const done: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]))
  for (let cycle = 0; Object.values(spent).reduce((x, y) => x + y, 0) < SECONDS * 1000 * names.length; cycle++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + cycle) % names.length]!
      const fn = contenders[name]!
      const started = performance.now()
      const cpuStarted = process.cpuUsage()
      let calls = 0
      while (performance.now() - started < SLICE_MS) for (let i = 0; i < 200; i++) fn(calls++)
      spent[name]! += performance.now() - started
      const cpu = process.cpuUsage(cpuStarted)
      cpuSpent[name]! += (cpu.user + cpu.system) / 1000
      done[name]! += calls
    }
  }
  return Object.fromEntries(
    names.flatMap((n) => [
      [n, done[n]! / (spent[n]! / 1000)],
      [`${n}:cpu`, done[n]! / (cpuSpent[n]! / 1000)],
    ]),
  )
}

/** Rates per second of request handlers, interleaved in batches (signing the requests is not timed). */
async function interleavedAsync(
  prepare: (n: number) => Promise<Request[]>,
  contenders: Record<string, (r: Request) => Promise<Response>>,
): Promise<Record<string, number>> {
  const names = Object.keys(contenders)
  for (const name of names) for (const request of await prepare(300)) await contenders[name]!(request)
  const spent: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]))
  const done: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]))
  for (let cycle = 0; Object.values(spent).reduce((x, y) => x + y, 0) < SECONDS * 1000 * names.length; cycle++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + cycle) % names.length]!
      const handle = contenders[name]!
      const requests = await prepare(ASYNC_BATCH)
      const started = performance.now()
      for (const request of requests) {
        const response = await handle(request)
        if (response.status !== 200) throw new Error(`unexpected ${response.status}: ${await response.text()}`)
      }
      spent[name]! += performance.now() - started
      done[name]! += ASYNC_BATCH
    }
  }
  return Object.fromEntries(names.map((n) => [n, done[n]! / (spent[n]! / 1000)]))
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** Per round: rates, and the ratio of each contender to the baseline in that round; medians over the rounds. */
function medians(rounds: Array<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.keys(rounds[0]!).map((name) => [name, median(rounds.map((round) => round[name]!))]))
}

if (process.argv.includes('--refusals-only')) {
  for (const [name, shape] of Object.entries(refusedShapes)) {
    const rates = medians(Array.from({ length: ROUNDS }, () => interleavedSync({ parse: () => void safeParseEvent(shape).error!.issues, ajv: () => void (ajvValidate(shape), ajvValidate.errors) })))
    console.log(`${name}: safeParseEvent ${Math.round(rates['parse']!)} /s, ajv ${Math.round(rates['ajv']!)} /s, ${(rates['ajv']! / rates['parse']!).toFixed(1)}x`)
  }
  process.exit(0)
}

const validRounds: Array<Record<string, number>> = []
for (let round = 0; round < ROUNDS; round++) {
  validRounds.push(
    interleavedSync({
      zod: (i) => void EventSchema.safeParse(inputs[i % inputs.length]),
      ajv: (i) => void ajvValidate(inputs[i % inputs.length]),
      parse: (i) => void safeParseEvent(inputs[i % inputs.length]),
    }),
  )
}
// A refusal costs what the sender gets back: safeParseEvent's readable issues (with hints), beside ajv's "all errors"
// list on the same shape.
const refusalRows = Object.entries(refusedShapes).map(([name, shape]) => {
  const rounds: Array<Record<string, number>> = []
  for (let round = 0; round < ROUNDS; round++) {
    rounds.push(interleavedSync({ parse: () => void safeParseEvent(shape).error!.issues, ajv: () => void (ajvValidate(shape), ajvValidate.errors) }))
  }
  const rates = medians(rounds)
  return { name, parse: rates['parse']!, ajv: rates['ajv']! }
})
const invalidRates = interleavedSync({ zod: () => void EventSchema.safeParse(invalid), ajv: () => void ajvValidate(invalid) })
const zodInvalid = invalidRates['zod']!
const ajvInvalid = invalidRates['ajv']!

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
const webhookRounds: Array<Record<string, number>> = []
for (let round = 0; round < ROUNDS; round++) webhookRounds.push(await interleavedAsync(prepare, { webhook, bare, primitives }))

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const valid = medians(validRounds)
const hooks = medians(webhookRounds)
const zod = valid['zod']!
const ajvRate = valid['ajv']!
const parseRate = valid['parse']!
const parseCpuRate = valid['parse:cpu']!
const ajvCpuRate = valid['ajv:cpu']!
const hook = hooks['webhook']!
const bareRate = hooks['bare']!
const primitiveRate = hooks['primitives']!
console.log(`Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${new Date().toISOString().slice(0, 10)}, ${SECONDS} s x ${ROUNDS} rounds, median\n`)
console.log('| measurement | botshelf | baseline | ratio (botshelf / baseline) |')
console.log('|---|---:|---:|---:|')
console.log(`| valid events validated per second (zod EventSchema vs ajv compiled JSON Schema) | ${fmt(zod)} | ${fmt(ajvRate)} | ${(zod / ajvRate).toFixed(3)} |`)
console.log(`| valid events validated per second (safeParseEvent: direct check of the common valid event, zod otherwise, vs ajv) | ${fmt(parseRate)} | ${fmt(ajvRate)} | ${(parseRate / ajvRate).toFixed(3)} |`)
console.log(`| valid events validated per CPU second (safeParseEvent vs ajv, the process's CPU time in the same slices: steadier than the clock on a loaded machine) | ${fmt(parseCpuRate)} | ${fmt(ajvCpuRate)} | ${(parseCpuRate / ajvCpuRate).toFixed(3)} |`)
console.log(`| invalid events refused per second (same pair) | ${fmt(zodInvalid)} | ${fmt(ajvInvalid)} | ${(zodInvalid / ajvInvalid).toFixed(3)} |`)
for (const row of refusalRows) {
  console.log(`| refused events per second, ${row.name} (safeParseEvent with readable issues vs ajv allErrors) | ${fmt(row.parse)} | ${fmt(row.ajv)} | ${(row.parse / row.ajv).toFixed(3)} (${(row.ajv / row.parse).toFixed(1)}x) |`)
}
console.log(`| webhook requests handled per second in process (createWebhookHandler vs bare read + JSON.parse) | ${fmt(hook)} | ${fmt(bareRate)} | ${(hook / bareRate).toFixed(3)} |`)
console.log(`| webhook requests handled per second in process (createWebhookHandler vs its primitives: read, node:crypto HMAC, JSON.parse, parseEvent) | ${fmt(hook)} | ${fmt(primitiveRate)} | ${(hook / primitiveRate).toFixed(3)} |`)

printRatio({ bench: 'events', row: 'valid events validated (safeParseEvent) vs ajv-compiled JSON Schema', botshelf: parseRate, baseline: ajvRate, unit: 'events/s', goal: 0.2 })
printRatio({ bench: 'events', row: 'valid events validated (zod EventSchema alone) vs ajv', botshelf: zod, baseline: ajvRate, unit: 'events/s' })
printRatio({ bench: 'events', row: 'invalid events refused (zod, with issues) vs ajv', botshelf: zodInvalid, baseline: ajvInvalid, unit: 'events/s' })
for (const row of refusalRows) {
  printRatio({ bench: 'events', row: `refused event (${row.name}) vs ajv allErrors`, botshelf: row.parse, baseline: row.ajv, unit: 'events/s', goal: 0.2 })
}
printRatio({ bench: 'events', row: 'webhook request in process vs its primitives', botshelf: hook, baseline: primitiveRate, unit: 'req/s', goal: 0.5 })
printRatio({ bench: 'events', row: 'webhook request in process vs bare read + JSON.parse', botshelf: hook, baseline: bareRate, unit: 'req/s' })
