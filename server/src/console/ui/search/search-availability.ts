import { isApiError, type Client } from 'botshelf/client'

/**
 * Whether the service has a search API: a probe `searchFiles` call that answers anything but 405
 * `MethodNotFound` (a result, an empty list, or a refusal of the probe itself) means it exists. The console's
 * Search tab stays hidden until then.
 *
 * @example
 * ```ts
 * if (await searchAvailable(api.client)) showSearchTab()
 * ```
 */
export async function searchAvailable(client: Client): Promise<boolean> {
  try {
    await client.searchFiles({ query: 'botshelf console probe', limit: 1 })
    return true
  } catch (error) {
    if (isApiError(error) && error.code === 405) return false
    return isApiError(error)
  }
}
