import type { PartialDeep } from 'type-fest'
import type { z } from 'zod'
import {
  builtInPayloadSchemas,
  getPreview,
  parseEvent,
  type AudioPayload,
  type BotEvent,
  type BotEventInput,
  type CardPayload,
  type CarouselPayload,
  type ChoicePayload,
  type DropdownPayload,
  type EventTypes,
  type FilePayload,
  type ImagePayload,
  type LocationPayload,
  type MarkdownPayload,
  type OpenRecord,
  type PayloadOf,
  type PayloadSchemas,
  type RegisteredEventType,
  type TextPayload,
  type VideoPayload,
} from '../event/index.js'
import type { Clock } from '../clock/index.js'
import { fakeId, seededRandom } from './seeded-random.js'
import { rememberMadeUpBotId } from './fake-bot-ids.js'

/** The time of the first fake event (and of every fake made with a `seed`): 2024-01-01T00:00:00.000Z. */
export const FAKE_EVENT_TIME = new Date('2024-01-01T00:00:00.000Z')

/** How far the fakes' own clock moves between two fakes made without `seed` or `clock`: one second. */
export const FAKE_EVENT_STEP_MS = 1000

/**
 * Fields to change in a fake event of type `T`: any part of an event, deeply partial and type-checked, the payload
 * by its type's payload (`{ payload: { text: 5 } }` does not compile for a text event).
 */
export type FakeEventOverrides<T extends string = RegisteredEventType> = PartialDeep<Omit<BotEventInput, 'type' | 'payload'>> & {
  type?: T
  payload?: PartialDeep<PayloadOf<T>>
}

/** Options of the fake event builders. */
export interface FakeEventOptions {
  /**
   * Seed of the generated ids (`id`, `botId`, `conversationId`, `userId`, `messageId`) and fixed time: the same seed
   * gives the same event. Without it, `botId`, `conversationId` and `userId` come from seed 1 (consecutive fakes
   * are one conversation) while `id` and `messageId` are new on every call and `createdOn` moves one second.
   * @example `{ seed: 42 }`
   */
  seed?: number
  /**
   * The clock `createdOn` is read from (a test's fake clock). Default: the fakes' own clock, which moves by
   * `FAKE_EVENT_STEP_MS` per fake (or `FAKE_EVENT_TIME` with a `seed`).
   * @example `{ clock: clock.now }`
   */
  clock?: Clock
}

const defaultPayloads: Readonly<Record<keyof typeof builtInPayloadSchemas, Record<string, unknown>>> = {
  text: { text: 'Hello' },
  markdown: { markdown: '**Hello**' },
  image: { imageUrl: 'https://example.com/image.png' },
  audio: { audioUrl: 'https://example.com/audio.mp3' },
  video: { videoUrl: 'https://example.com/video.mp4' },
  file: { fileUrl: 'https://example.com/file.pdf', filename: 'file.pdf' },
  location: { latitude: 45.5017, longitude: -73.5673, title: 'Montréal' },
  card: { title: 'Pro plan', actions: [{ action: 'postback', label: 'Choose', value: 'choose-pro' }] },
  carousel: {
    items: [
      { title: 'Basic plan', actions: [{ action: 'postback', label: 'Choose', value: 'choose-basic' }] },
      { title: 'Pro plan', actions: [{ action: 'postback', label: 'Choose', value: 'choose-pro' }] },
    ],
  },
  choice: { text: 'Pick one', options: [{ label: 'Yes', value: 'yes' }, { label: 'No', value: 'no' }] },
  dropdown: { text: 'Choose from the list', options: [{ label: 'Red', value: 'red' }, { label: 'Blue', value: 'blue' }] },
}

// The fakes' own sequence and clock: each fake made without a seed takes the next number (its `id` and
// `messageId`) and the next second.
let sequence = 0
let clockMs = FAKE_EVENT_TIME.getTime()

/**
 * Restarts the fakes' sequence and clock (ids and times then repeat from the first fake): call it in `beforeEach`
 * when a snapshot holds fake ids or times.
 *
 * @example
 * ```ts
 * beforeEach(() => resetFakes())
 * ```
 */
export function resetFakes(): void {
  sequence = 0
  clockMs = FAKE_EVENT_TIME.getTime()
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
}

/** Deep merge: objects merge key by key, arrays and dates replace, `undefined` removes the key. */
function merge(base: Record<string, unknown>, overrides: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete out[key]
    else if (isPlainObject(value) && isPlainObject(out[key])) out[key] = merge(out[key] as Record<string, unknown>, value)
    else out[key] = value
  }
  return out
}

/** Builds and validates one fake: the shared part of every builder. */
function buildFake(type: string, overrides: Record<string, unknown>, options: FakeEventOptions): BotEvent {
  const seeded = options.seed !== undefined
  const random = seededRandom(options.seed ?? 1)
  const samplePayload = (defaultPayloads as Record<string, Record<string, unknown>>)[type] ?? {}
  const base: Record<string, unknown> = {
    id: fakeId(random, 'evt'),
    botId: fakeId(random, 'bot'),
    conversationId: fakeId(random, 'conv'),
    userId: fakeId(random, 'user'),
    messageId: fakeId(random, 'msg'),
    createdOn: new Date(FAKE_EVENT_TIME.getTime()),
    direction: 'incoming',
    type,
    payload: structuredClone(samplePayload),
    preview: '',
    state: {},
  }
  if (!seeded) {
    sequence += 1
    const unique = seededRandom(1_000_003 + sequence)
    base['id'] = fakeId(unique, 'evt')
    base['messageId'] = fakeId(unique, 'msg')
    if (!options.clock) {
      base['createdOn'] = new Date(clockMs)
      clockMs += FAKE_EVENT_STEP_MS
    }
  }
  if (options.clock) base['createdOn'] = options.clock()
  // A made-up bot id is a placeholder: createTestBot dispatches such an event as its own bot's.
  if (overrides['botId'] === undefined) rememberMadeUpBotId(base['botId'] as string)
  const merged = merge(base, { ...overrides, type })
  if (overrides['preview'] === undefined) {
    merged['preview'] = ''
    const draft = parseEvent(merged)
    return { ...draft, preview: getPreview(draft) }
  }
  return parseEvent(merged)
}

/**
 * A valid event for tests: by default an incoming `text` event saying "Hello". Each call without `seed` has a new
 * `id` and `messageId` and a `createdOn` one second after the previous fake's (same bot, conversation and user);
 * with `seed`, every field is fixed by the seed. Overrides are merged deeply and typed by `type` (a registered
 * type name: an unknown name does not compile; use `fakeUntypedEvent` for those); the payload starts from the
 * type's sample; when `preview` is not given it follows the payload. The result goes through `parseEvent`, so a
 * wrong override throws `EventValidationError`.
 *
 * @example
 * ```ts
 * const event = fakeEvent({ direction: 'outgoing', tags: { conversation: { topic: 'billing' } } })
 * const same = fakeEvent({}, { seed: 7 }) // deep-equal to fakeEvent({}, { seed: 7 })
 * const image = fakeEvent({ type: 'image', payload: { title: 'Receipt' } })
 * ```
 */
export function fakeEvent<const T extends RegisteredEventType = 'text'>(
  overrides: FakeEventOverrides<T> = {},
  options: FakeEventOptions = {},
): FakeEventOf<T, PayloadOf<T>> {
  const type = typeof overrides.type === 'string' ? overrides.type : 'text'
  return buildFake(type, overrides as Record<string, unknown>, options) as FakeEventOf<T, PayloadOf<T>>
}

/**
 * A fake event of a type no registry knows (an integration's own event, a legacy type): the payload is an open
 * record and is not checked.
 *
 * @example
 * ```ts
 * fakeUntypedEvent('custom', { a: 1 })
 * ```
 */
export function fakeUntypedEvent(
  type: string,
  payload: OpenRecord = {},
  overrides: FakeEventOverrides<never> = {},
  options: FakeEventOptions = {},
): BotEvent {
  return buildFake(type, { ...overrides, payload }, options)
}

/**
 * A fake event of one of a bot's own types (`defineEventTypes`): the payload is typed and checked by that type's
 * schema.
 *
 * @example
 * ```ts
 * const types = defineEventTypes({ order: z.object({ orderId: z.string(), total: z.number() }) })
 * const order = fakeEventOfType(types, 'order', { orderId: 'o_1', total: 30 })
 * order.payload.total // number
 * ```
 */
export function fakeEventOfType<S extends PayloadSchemas, const T extends keyof S & string>(
  types: EventTypes<S>,
  type: T,
  payload: z.input<S[T]>,
  overrides: FakeEventOverrides<never> = {},
  options: FakeEventOptions = {},
): FakeEventOf<T, z.output<S[T]>> {
  const event = buildFake(type, { ...overrides, payload }, options)
  return types.parse(event) as unknown as FakeEventOf<T, z.output<S[T]>>
}

/** A fake event narrowed to one type. */
export type FakeEventOf<T extends string, P> = BotEvent & { type: T; payload: P }

function typedFake<T extends keyof typeof builtInPayloadSchemas>(
  type: T,
  payload: PartialDeep<PayloadOf<T>> | undefined,
  overrides: FakeEventOverrides<T> | undefined,
  options: FakeEventOptions | undefined,
): FakeEventOf<T, PayloadOf<T>> {
  const merged = merge(defaultPayloads[type], (payload ?? {}) as Record<string, unknown>)
  return buildFake(type, { ...overrides, payload: merge(merged, (overrides?.payload ?? {}) as Record<string, unknown>) }, options ?? {}) as FakeEventOf<T, PayloadOf<T>>
}

/**
 * An incoming text event saying `text` (its preview is the text too).
 *
 * @example
 * ```ts
 * const event = fakeTextEvent('I want a refund', { conversationId: 'conv_1' })
 * event.payload.text // 'I want a refund'
 * ```
 */
export function fakeTextEvent(text: string, overrides?: FakeEventOverrides<'text'>, options?: FakeEventOptions): FakeEventOf<'text', TextPayload> {
  return typedFake('text', { text }, overrides, options)
}

/**
 * An incoming markdown event.
 *
 * @example
 * ```ts
 * fakeMarkdownEvent('# Title').payload.markdown // '# Title'
 * ```
 */
export function fakeMarkdownEvent(
  markdown = '**Hello**',
  overrides?: FakeEventOverrides<'markdown'>,
  options?: FakeEventOptions,
): FakeEventOf<'markdown', MarkdownPayload> {
  return typedFake('markdown', { markdown }, overrides, options)
}

/**
 * An incoming image event (sample: `https://example.com/image.png`).
 *
 * @example
 * ```ts
 * fakeImageEvent({ title: 'Receipt' })
 * ```
 */
export function fakeImageEvent(payload?: PartialDeep<ImagePayload>, overrides?: FakeEventOverrides<'image'>, options?: FakeEventOptions): FakeEventOf<'image', ImagePayload> {
  return typedFake('image', payload, overrides, options)
}

/**
 * An incoming audio event (sample: `https://example.com/audio.mp3`).
 *
 * @example
 * ```ts
 * fakeAudioEvent({ audioUrl: 'https://cdn.example.com/voice.ogg' })
 * ```
 */
export function fakeAudioEvent(payload?: PartialDeep<AudioPayload>, overrides?: FakeEventOverrides<'audio'>, options?: FakeEventOptions): FakeEventOf<'audio', AudioPayload> {
  return typedFake('audio', payload, overrides, options)
}

/**
 * An incoming video event (sample: `https://example.com/video.mp4`).
 *
 * @example
 * ```ts
 * fakeVideoEvent({ title: 'Demo' })
 * ```
 */
export function fakeVideoEvent(payload?: PartialDeep<VideoPayload>, overrides?: FakeEventOverrides<'video'>, options?: FakeEventOptions): FakeEventOf<'video', VideoPayload> {
  return typedFake('video', payload, overrides, options)
}

/**
 * An incoming file event (sample: `https://example.com/file.pdf`, `file.pdf`).
 *
 * @example
 * ```ts
 * fakeFileEvent({ filename: 'invoice.pdf' })
 * ```
 */
export function fakeFileEvent(payload?: PartialDeep<FilePayload>, overrides?: FakeEventOverrides<'file'>, options?: FakeEventOptions): FakeEventOf<'file', FilePayload> {
  return typedFake('file', payload, overrides, options)
}

/**
 * An incoming location event (sample: Montréal).
 *
 * @example
 * ```ts
 * fakeLocationEvent({ latitude: 48.85, longitude: 2.35, title: 'Paris' })
 * ```
 */
export function fakeLocationEvent(
  payload?: PartialDeep<LocationPayload>,
  overrides?: FakeEventOverrides<'location'>,
  options?: FakeEventOptions,
): FakeEventOf<'location', LocationPayload> {
  return typedFake('location', payload, overrides, options)
}

/**
 * A card event (sample: "Pro plan" with one postback button). Cards usually go out: pass
 * `{ direction: 'outgoing' }`.
 *
 * @example
 * ```ts
 * fakeCardEvent({ title: 'Upgrade' }, { direction: 'outgoing' })
 * ```
 */
export function fakeCardEvent(payload?: PartialDeep<CardPayload>, overrides?: FakeEventOverrides<'card'>, options?: FakeEventOptions): FakeEventOf<'card', CardPayload> {
  return typedFake('card', payload, overrides, options)
}

/**
 * A carousel event (sample: two plan cards).
 *
 * @example
 * ```ts
 * fakeCarouselEvent(undefined, { direction: 'outgoing' }).payload.items.length // 2
 * ```
 */
export function fakeCarouselEvent(
  payload?: PartialDeep<CarouselPayload>,
  overrides?: FakeEventOverrides<'carousel'>,
  options?: FakeEventOptions,
): FakeEventOf<'carousel', CarouselPayload> {
  return typedFake('carousel', payload, overrides, options)
}

/**
 * A choice event (sample: "Pick one", Yes / No).
 *
 * @example
 * ```ts
 * fakeChoiceEvent({ text: 'Rate us', options: [{ label: '5', value: '5' }] })
 * ```
 */
export function fakeChoiceEvent(payload?: PartialDeep<ChoicePayload>, overrides?: FakeEventOverrides<'choice'>, options?: FakeEventOptions): FakeEventOf<'choice', ChoicePayload> {
  return typedFake('choice', payload, overrides, options)
}

/**
 * A dropdown event (sample: "Choose from the list", Red / Blue).
 *
 * @example
 * ```ts
 * fakeDropdownEvent({ text: 'Country?' })
 * ```
 */
export function fakeDropdownEvent(
  payload?: PartialDeep<DropdownPayload>,
  overrides?: FakeEventOverrides<'dropdown'>,
  options?: FakeEventOptions,
): FakeEventOf<'dropdown', DropdownPayload> {
  return typedFake('dropdown', payload, overrides, options)
}
