import type { PartialDeep } from 'type-fest'
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
  type FilePayload,
  type ImagePayload,
  type LocationPayload,
  type MarkdownPayload,
  type TextPayload,
  type VideoPayload,
} from '../event/index.js'
import { fakeId, seededRandom } from './seeded-random.js'
import { rememberMadeUpBotId } from './fake-bot-ids.js'

/** The time every fake event is created at, unless overridden: 2024-01-01T00:00:00.000Z. */
export const FAKE_EVENT_TIME = new Date('2024-01-01T00:00:00.000Z')

/** Fields to change in a fake event: any part of an event, deeply partial and type-checked. */
export type FakeEventOverrides = PartialDeep<BotEventInput>

/** Options of the fake event builders. */
export interface FakeEventOptions {
  /**
   * Seed of the generated ids (`id`, `botId`, `conversationId`, `userId`, `messageId`). The same seed gives the
   * same event. Default `1`.
   * @example `{ seed: 42 }`
   */
  seed?: number
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

/**
 * A valid event for tests: an incoming `text` event saying "Hello", with ids drawn from `seed` and
 * `createdOn` = 2024-01-01T00:00:00Z. Overrides are merged deeply; when `type` is overridden with a built-in
 * type the payload starts from that type's sample; when `preview` is not given it follows the payload. The
 * result goes through `parseEvent`, so a wrong override throws `EventValidationError`.
 *
 * @example
 * ```ts
 * const event = fakeEvent({ direction: 'outgoing', tags: { conversation: { topic: 'billing' } } })
 * const same = fakeEvent({}, { seed: 7 }) // deep-equal to fakeEvent({}, { seed: 7 })
 * ```
 */
export function fakeEvent(overrides: FakeEventOverrides = {}, options: FakeEventOptions = {}): BotEvent {
  const random = seededRandom(options.seed ?? 1)
  const type = typeof overrides.type === 'string' ? overrides.type : 'text'
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
  // A made-up bot id is a placeholder: createTestBot dispatches such an event as its own bot's.
  if (overrides.botId === undefined) rememberMadeUpBotId(base['botId'] as string)
  const merged = merge(base, overrides as Record<string, unknown>)
  if (overrides.preview === undefined) {
    merged['preview'] = ''
    const draft = parseEvent(merged)
    return { ...draft, preview: getPreview(draft) }
  }
  return parseEvent(merged)
}

/** A fake event narrowed to one built-in type. */
export type FakeEventOf<T extends string, P> = BotEvent & { type: T; payload: P }

function typedFake<T extends keyof typeof builtInPayloadSchemas, P>(
  type: T,
  payload: Partial<P> | undefined,
  overrides: FakeEventOverrides | undefined,
  options: FakeEventOptions | undefined,
): FakeEventOf<T, P> {
  const merged = merge(defaultPayloads[type], (payload ?? {}) as Record<string, unknown>)
  return fakeEvent({ ...overrides, type, payload: { ...merged, ...(overrides?.payload ?? {}) } }, options) as FakeEventOf<T, P>
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
export function fakeTextEvent(text: string, overrides?: FakeEventOverrides, options?: FakeEventOptions): FakeEventOf<'text', TextPayload> {
  return typedFake<'text', TextPayload>('text', { text }, overrides, options)
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
  overrides?: FakeEventOverrides,
  options?: FakeEventOptions,
): FakeEventOf<'markdown', MarkdownPayload> {
  return typedFake<'markdown', MarkdownPayload>('markdown', { markdown }, overrides, options)
}

/**
 * An incoming image event (sample: `https://example.com/image.png`).
 *
 * @example
 * ```ts
 * fakeImageEvent({ title: 'Receipt' })
 * ```
 */
export function fakeImageEvent(payload?: Partial<ImagePayload>, overrides?: FakeEventOverrides, options?: FakeEventOptions): FakeEventOf<'image', ImagePayload> {
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
export function fakeAudioEvent(payload?: Partial<AudioPayload>, overrides?: FakeEventOverrides, options?: FakeEventOptions): FakeEventOf<'audio', AudioPayload> {
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
export function fakeVideoEvent(payload?: Partial<VideoPayload>, overrides?: FakeEventOverrides, options?: FakeEventOptions): FakeEventOf<'video', VideoPayload> {
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
export function fakeFileEvent(payload?: Partial<FilePayload>, overrides?: FakeEventOverrides, options?: FakeEventOptions): FakeEventOf<'file', FilePayload> {
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
  payload?: Partial<LocationPayload>,
  overrides?: FakeEventOverrides,
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
export function fakeCardEvent(payload?: Partial<CardPayload>, overrides?: FakeEventOverrides, options?: FakeEventOptions): FakeEventOf<'card', CardPayload> {
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
  payload?: Partial<CarouselPayload>,
  overrides?: FakeEventOverrides,
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
export function fakeChoiceEvent(payload?: Partial<ChoicePayload>, overrides?: FakeEventOverrides, options?: FakeEventOptions): FakeEventOf<'choice', ChoicePayload> {
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
  payload?: Partial<DropdownPayload>,
  overrides?: FakeEventOverrides,
  options?: FakeEventOptions,
): FakeEventOf<'dropdown', DropdownPayload> {
  return typedFake('dropdown', payload, overrides, options)
}
