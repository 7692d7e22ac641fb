import { useEffect, useState } from 'preact/hooks'
import type { File as StoredFile } from 'botshelf/client'
import { errorMessage } from '../core/error-message.js'

/** How much of a text file the preview reads. */
export const TEXT_PREVIEW_BYTES = 64 * 1024

/** How the console previews a content type: never as HTML in its own origin (decision 1104). */
export type PreviewKind = 'text' | 'image' | 'pdf' | 'none'

const images = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp'])
const texts = new Set(['application/json', 'application/x-ndjson', 'application/xml', 'application/yaml', 'application/x-yaml', 'application/csv', 'application/javascript'])

/**
 * The preview of a content type. Text (HTML and SVG included) is shown as text; raster images through `<img>` from
 * the content URL; PDF in the browser's viewer from the content URL; anything else is not previewed.
 *
 * @example
 * ```ts
 * previewKind('text/html; charset=utf-8') // 'text'
 * previewKind('image/svg+xml') // 'text'
 * ```
 */
export function previewKind(contentType: string): PreviewKind {
  const essence = contentType.split(';')[0]!.trim().toLowerCase()
  if (images.has(essence)) return 'image'
  if (essence === 'application/pdf') return 'pdf'
  if (essence.startsWith('text/') || texts.has(essence) || essence.endsWith('+json') || essence.endsWith('+xml')) return 'text'
  return 'none'
}

/** The preview of one file (only once its content is uploaded). @example `<FilePreview file={file} />` */
export function FilePreview({ file }: { file: StoredFile }) {
  const kind = previewKind(file.contentType)
  const ready = file.status !== 'upload_pending' && file.status !== 'upload_failed'
  if (!ready) return <p class="muted">No content to preview: the upload is {file.status === 'upload_failed' ? 'failed' : 'not finished'}.</p>
  if (kind === 'image') return <img class="preview-image" src={file.url} alt={`Preview of ${file.key}`} />
  if (kind === 'pdf')
    return (
      <object class="preview-pdf" data={file.url} type="application/pdf" aria-label={`Preview of ${file.key}`}>
        <p>
          This browser shows no PDF here: <a href={file.url}>open the PDF</a>.
        </p>
      </object>
    )
  if (kind === 'text') return <TextPreview file={file} />
  return <p class="muted">No preview for {file.contentType}; download it instead.</p>
}

function TextPreview({ file }: { file: StoredFile }) {
  const [text, setText] = useState<string | undefined>()
  const [error, setError] = useState<string | undefined>()
  useEffect(() => {
    const controller = new AbortController()
    fetch(file.url, { headers: { range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` }, signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`the content answered ${response.status}`)
        setText(new TextDecoder('utf-8', { fatal: false }).decode(await response.arrayBuffer()))
      })
      .catch((reason: unknown) => controller.signal.aborted || setError(errorMessage(reason)))
    return () => controller.abort()
  }, [file.url])
  if (error) return <p role="alert">The preview could not be read: {error}</p>
  if (text === undefined) return <p role="status">Loading the preview…</p>
  return (
    <>
      <pre class="preview-text" tabIndex={0} aria-label={`Text of ${file.key}`} data-testid="text-preview">
        {text}
      </pre>
      {file.size !== null && file.size > TEXT_PREVIEW_BYTES && <p class="muted">Showing the first 64 KB.</p>}
    </>
  )
}
