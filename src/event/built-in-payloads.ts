import { z } from 'zod'

/**
 * Payload schemas of the built-in message types. Every payload is a loose object: the listed fields are
 * checked, extra fields (channel-specific data) are kept. URLs must be absolute URLs.
 */

const url = z.url()
const nonEmpty = z.string().min(1)

/** `text`: a plain-text message. `{ text }`. */
export const TextPayloadSchema = z.looseObject({ text: z.string() })

/** `markdown`: a message in Markdown. `{ markdown }`. */
export const MarkdownPayloadSchema = z.looseObject({ markdown: z.string() })

/** `image`: `{ imageUrl, title? }`. */
export const ImagePayloadSchema = z.looseObject({ imageUrl: url, title: z.string().optional() })

/** `audio`: `{ audioUrl, title? }`. */
export const AudioPayloadSchema = z.looseObject({ audioUrl: url, title: z.string().optional() })

/** `video`: `{ videoUrl, title? }`. */
export const VideoPayloadSchema = z.looseObject({ videoUrl: url, title: z.string().optional() })

/** `file`: `{ fileUrl, title?, filename? }`. */
export const FilePayloadSchema = z.looseObject({
  fileUrl: url,
  title: z.string().optional(),
  filename: z.string().optional(),
})

/** `location`: `{ latitude (-90..90), longitude (-180..180), address?, title? }`. */
export const LocationPayloadSchema = z.looseObject({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  address: z.string().optional(),
  title: z.string().optional(),
})

/**
 * A button on a card: `postback` sends `value` back to the bot, `url` opens `value`, `say` makes the user
 * say `value`.
 */
export const CardActionSchema = z.looseObject({
  action: z.enum(['postback', 'url', 'say']),
  label: nonEmpty,
  value: z.string(),
})

/** `card`: `{ title, subtitle?, imageUrl?, actions }` (actions may be empty). */
export const CardPayloadSchema = z.looseObject({
  title: nonEmpty,
  subtitle: z.string().optional(),
  imageUrl: url.optional(),
  actions: z.array(CardActionSchema),
})

/** `carousel`: `{ items }`, at least one card. */
export const CarouselPayloadSchema = z.looseObject({ items: z.array(CardPayloadSchema).min(1) })

/** One option of a choice or a dropdown: what the user sees (`label`) and what the bot receives (`value`). */
export const ChoiceOptionSchema = z.looseObject({ label: nonEmpty, value: z.string() })

/** `choice`: a question with buttons. `{ text, options }`, at least one option. */
export const ChoicePayloadSchema = z.looseObject({ text: z.string(), options: z.array(ChoiceOptionSchema).min(1) })

/** `dropdown`: a question with a select list. `{ text, options }`, at least one option. */
export const DropdownPayloadSchema = z.looseObject({ text: z.string(), options: z.array(ChoiceOptionSchema).min(1) })

/**
 * Built-in event types and their payload schemas: THE place a built-in type is added. Its name and payload type
 * follow from here everywhere (`EventTypeRegistry`, `isEventOfType`, hook `types`, fakes, `parseEvent`).
 */
export const builtInPayloadSchemas = {
  text: TextPayloadSchema,
  markdown: MarkdownPayloadSchema,
  image: ImagePayloadSchema,
  audio: AudioPayloadSchema,
  video: VideoPayloadSchema,
  file: FilePayloadSchema,
  location: LocationPayloadSchema,
  card: CardPayloadSchema,
  carousel: CarouselPayloadSchema,
  choice: ChoicePayloadSchema,
  dropdown: DropdownPayloadSchema,
} as const

/** Name of a built-in message type. */
export type BuiltInEventType = keyof typeof builtInPayloadSchemas

/** Payload type of each built-in type, read from its schema. */
export type BuiltInPayloads = { [K in BuiltInEventType]: z.output<(typeof builtInPayloadSchemas)[K]> }

export type TextPayload = z.output<typeof TextPayloadSchema>
export type MarkdownPayload = z.output<typeof MarkdownPayloadSchema>
export type ImagePayload = z.output<typeof ImagePayloadSchema>
export type AudioPayload = z.output<typeof AudioPayloadSchema>
export type VideoPayload = z.output<typeof VideoPayloadSchema>
export type FilePayload = z.output<typeof FilePayloadSchema>
export type LocationPayload = z.output<typeof LocationPayloadSchema>
export type CardAction = z.output<typeof CardActionSchema>
export type CardPayload = z.output<typeof CardPayloadSchema>
export type CarouselPayload = z.output<typeof CarouselPayloadSchema>
export type ChoiceOption = z.output<typeof ChoiceOptionSchema>
export type ChoicePayload = z.output<typeof ChoicePayloadSchema>
export type DropdownPayload = z.output<typeof DropdownPayloadSchema>
