export {
  EventSchema,
  EventDirectionSchema,
  TriggerSchema,
  EventTagsSchema,
  KbSchema,
  EventStateSchema,
  eventFieldNames,
  type BotEvent,
  type BotEventInput,
  type EventDirection,
  type Trigger,
  type EventTags,
  type TagScope,
  type Kb,
  type EventState,
} from './event-schema.js'
export { OpenRecordSchema, type OpenRecord } from './open-record.js'
export { CreatedOnSchema, parseEventDate } from './created-on.js'
export { EventValidationError } from './event-validation-error.js'
export { parseEvent, safeParseEvent, type SafeParseEventResult } from './parse-event.js'
export { parseLegacyEvent, type LegacyParseOptions, type LegacyParseResult } from './parse-legacy-event.js'
export { serializeEvent, type SerializedEvent } from './serialize-event.js'
export {
  builtInPayloadSchemas,
  TextPayloadSchema,
  MarkdownPayloadSchema,
  ImagePayloadSchema,
  AudioPayloadSchema,
  VideoPayloadSchema,
  FilePayloadSchema,
  LocationPayloadSchema,
  CardActionSchema,
  CardPayloadSchema,
  CarouselPayloadSchema,
  ChoiceOptionSchema,
  ChoicePayloadSchema,
  DropdownPayloadSchema,
  type BuiltInEventType,
  type BuiltInPayloads,
  type TextPayload,
  type MarkdownPayload,
  type ImagePayload,
  type AudioPayload,
  type VideoPayload,
  type FilePayload,
  type LocationPayload,
  type CardAction,
  type CardPayload,
  type CarouselPayload,
  type ChoiceOption,
  type ChoicePayload,
  type DropdownPayload,
} from './built-in-payloads.js'
export {
  defineEventType,
  isEventOfType,
  isKnownEvent,
  getPayloadSchema,
  listEventTypes,
  EventTypeDefinitionError,
  type EventTypeRegistry,
  type RegisteredEventType,
  type PayloadOf,
  type EventOfType,
  type EventTypeDefinition,
  type KnownEvent,
} from './event-type-registry.js'
export {
  defineEventTypes,
  type EventTypes,
  type PayloadSchemas,
  type PayloadsOf,
  type TypesOf,
  type TypeNameOf,
} from './define-event-types.js'
export { defineTagKeys, type TagKeys, type TagKeyMap } from './tag-keys.js'
export type { PayloadSchema } from './payload-registry.js'
export { getPreview, type PreviewOptions } from './preview.js'
export {
  isIncoming,
  isOutgoing,
  getTags,
  getTag,
  getTrigger,
  getConversationId,
  getUserId,
  isTextEvent,
  getText,
  getExtraFields,
} from './accessors.js'
// The storage event types (file.*, table.*) register as built-ins when this module loads.
export { storageEventTypes, type StorageEventRegistry } from './storage-event-types.js'
