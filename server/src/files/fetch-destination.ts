import { ServiceError } from '../http/service-error.js'

/** The `Sec-Fetch-Dest` values of a browser loading content to run it or style a page with it. */
const RUNNABLE_DESTINATIONS = new Set(['script', 'style', 'worker', 'sharedworker', 'serviceworker', 'audioworklet', 'paintworklet', 'xslt', 'json'])

/**
 * Refuses a content download a browser makes to run the file or style a page with it (its `Sec-Fetch-Dest` is
 * `script`, `style`, a worker, a worklet, `xslt` or `json` module): content is served from the console's origin, whose
 * CSP allows that origin's scripts, so an uploaded `text/javascript` must never load as one (issue 28, decision
 * 1464). Downloads, links, previews (`document`, `iframe`, `embed`, `image`, ...) and programs (no header) pass.
 *
 * @example
 * ```ts
 * refuseRunnableDestination(c.req.header('sec-fetch-dest'), file.id)
 * ```
 */
export function refuseRunnableDestination(destination: string | undefined, fileId: string): void {
  if (destination === undefined || !RUNNABLE_DESTINATIONS.has(destination.trim().toLowerCase())) return
  throw new ServiceError('Forbidden', `File content is never served as a ${destination.trim().toLowerCase()} (Sec-Fetch-Dest); download it or open it as a document`, { id: fileId })
}
