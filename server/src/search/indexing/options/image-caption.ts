import { formatBy } from '../../extraction/index.js'
import type { LanguageModel } from '../../../language-model/index.js'
import type { PreparedPassage } from '../given-passages.js'

const byContentType: Record<string, string> = {
  'image/png': 'image/png',
  'image/jpeg': 'image/jpeg',
  'image/jpg': 'image/jpeg',
  'image/gif': 'image/gif',
  'image/webp': 'image/webp',
}
const byExtension: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' }

/** The largest image sent to a model to be described: 20 MB (20 × 2^20 bytes), the common limit of vision APIs. */
export const IMAGE_CAPTION_MAX_BYTES = 20 * 1024 * 1024

/**
 * The image type of a file botshelf indexes by describing it (PNG, JPEG, GIF, WebP), by content type or, when that is
 * generic, by the key's extension; `undefined` for anything else.
 *
 * @example
 * ```ts
 * imageType('application/octet-stream', 'photos/cat.JPG') // 'image/jpeg'
 * ```
 */
export function imageType(contentType: string, key: string): string | undefined {
  return formatBy(contentType, key, byContentType, byExtension)
}

/**
 * Vision for image files: asks the language model for a caption of the image (sent as a `data:` URL) and returns it
 * as the file's one passage, `type: 'image'`, `subtype: 'image'`. Throws the model's errors (a model that cannot see
 * images refuses the request).
 *
 * @example
 * ```ts
 * const [caption] = await captionImage({ content, type: 'image/png', key: 'diagram.png' }, { model, signal })
 * ```
 */
export async function captionImage(image: { content: Uint8Array; type: string; key: string }, options: { model: LanguageModel; signal: AbortSignal }): Promise<PreparedPassage[]> {
  const url = `data:${image.type};base64,${Buffer.from(image.content.buffer, image.content.byteOffset, image.content.byteLength).toString('base64')}`
  const answer = await options.model.complete({
    messages: [
      {
        role: 'system',
        content:
          'You describe images for a search index. Say what the image shows, transcribe any text it holds, and name the ' +
          'objects, people, places, data and terms someone might search for. Answer with the description alone.',
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: `Describe the image "${image.key}".` },
          { type: 'image_url', image_url: { url } },
        ],
      },
    ],
    temperature: 0,
    signal: options.signal,
  })
  const caption = answer.text.trim()
  return caption ? [{ content: caption, type: 'image', subtype: 'image', breadcrumb: [] }] : []
}
