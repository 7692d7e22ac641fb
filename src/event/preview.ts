import type { BotEvent } from './event-schema.js'
import { isEventOfType } from './event-type-registry.js'

/** Options of `getPreview`. */
export interface PreviewOptions {
  /**
   * Longest preview returned, in characters (code points), ellipsis included. A longer preview is cut and ends
   * with `…`. A positive integer; no limit by default.
   *
   * @example
   * ```ts
   * getPreview(event, { maxLength: 40 })
   * ```
   */
  maxLength?: number
}

/**
 * The plain-text preview of an event: `event.preview` when it is not blank, otherwise a text derived from a
 * built-in payload (the text of a text message, the title or URL of an image, the card titles of a carousel,
 * ...), or `''`. Cut to `maxLength` with `…` when asked.
 *
 * @example
 * ```ts
 * getPreview(event) // 'Hello, I need help with my order'
 * getPreview(event, { maxLength: 10 }) // 'Hello, I …'
 * ```
 */
export function getPreview(event: BotEvent, options: PreviewOptions = {}): string {
  const { maxLength } = options
  if (maxLength !== undefined && (!Number.isInteger(maxLength) || maxLength < 1)) {
    throw new RangeError(`getPreview: maxLength must be a positive integer, received ${String(maxLength)}`)
  }
  const text = event.preview.trim() !== '' ? event.preview : derivePreview(event)
  return maxLength === undefined ? text : truncate(text, maxLength)
}

function truncate(text: string, maxLength: number): string {
  const codePoints = Array.from(text)
  if (codePoints.length <= maxLength) return text
  return `${codePoints.slice(0, maxLength - 1).join('')}…`
}

function derivePreview(event: BotEvent): string {
  if (isEventOfType(event, 'text')) return event.payload.text
  if (isEventOfType(event, 'markdown')) return event.payload.markdown
  if (isEventOfType(event, 'choice') || isEventOfType(event, 'dropdown')) return event.payload.text
  if (isEventOfType(event, 'image')) return event.payload.title ?? event.payload.imageUrl
  if (isEventOfType(event, 'audio')) return event.payload.title ?? event.payload.audioUrl
  if (isEventOfType(event, 'video')) return event.payload.title ?? event.payload.videoUrl
  if (isEventOfType(event, 'file')) return event.payload.title ?? event.payload.filename ?? event.payload.fileUrl
  if (isEventOfType(event, 'location')) {
    const { title, address, latitude, longitude } = event.payload
    return title ?? address ?? `${latitude}, ${longitude}`
  }
  if (isEventOfType(event, 'card')) return event.payload.title
  if (isEventOfType(event, 'carousel')) return event.payload.items.map((card) => card.title).join(', ')
  return ''
}
