import type { Client, File as StoredFile } from 'botshelf/client'

/** Progress of one upload: bytes sent so far of the total. */
export interface UploadProgress {
  loaded: number
  total: number
}

/**
 * Uploads one browser file: `upsertFile` declares it (key, size, type, tags, and `index: true` to make it
 * searchable: the service indexes it once the content lands), then its content goes to the
 * returned `uploadUrl` with an XMLHttpRequest, which streams the file from disk and reports progress (fetch
 * reports none for request bodies). Resolves with the file once the service has it; rejects with the service's
 * message on refusal.
 *
 * @example
 * ```ts
 * const file = await uploadBrowserFile(api.client, input.files[0], { key: 'docs/a.pdf', onProgress: (p) => show(p) })
 * ```
 */
export async function uploadBrowserFile(
  client: Client,
  file: Blob & { name?: string },
  options: { key: string; tags?: Record<string, string>; index?: boolean; onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal },
): Promise<StoredFile> {
  const contentType = file.type || 'application/octet-stream'
  const { file: declared } = await client.upsertFile({
    key: options.key,
    size: file.size,
    contentType,
    ...(options.index ? { index: true } : {}),
    ...(options.tags && Object.keys(options.tags).length > 0 ? { tags: options.tags } : {}),
  })
  await new Promise<void>((resolve, reject) => {
    const request = new XMLHttpRequest()
    request.open('PUT', declared.uploadUrl)
    request.setRequestHeader('content-type', declared.contentType)
    request.upload.onprogress = (event) => options.onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size })
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) return resolve()
      let message = `the upload was refused (${request.status})`
      try {
        const body = JSON.parse(request.responseText) as { type?: string; message?: string }
        if (body.message) message = `${body.type ?? 'Error'}: ${body.message}`
      } catch {
        // Not a JSON error body: keep the status.
      }
      reject(new Error(message))
    }
    request.onerror = () => reject(new Error('The upload failed: the connection to the service was lost'))
    request.onabort = () => reject(new Error('The upload was cancelled'))
    options.signal?.addEventListener('abort', () => request.abort(), { once: true })
    request.send(file)
  })
  options.onProgress?.({ loaded: file.size, total: file.size })
  return (await client.getFile({ id: declared.id })).file
}
