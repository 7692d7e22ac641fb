import type { RawRoute, RawRouteParameter, RawRouteResponse } from '../http/openapi/raw-route.js'
import { CONTENT_PREFIX } from './content-urls.js'

// The OpenAPI description of the signed content routes, kept next to them: content-routes.ts registers its
// handlers on these `path`s, and openapi.test.ts sends real requests and checks each status is listed here.

const fileIdParameter: RawRouteParameter = { name: 'fileId', in: 'path', required: true, description: 'The file id (as in the signed URL).' }

function tokenParameter(what: string): RawRouteParameter {
  return {
    name: 'token',
    in: 'query',
    required: true,
    description: `The signed token of the URL (${what}); the URL is used exactly as the service returned it.`,
  }
}

const downloadHeaders: RawRouteParameter[] = [
  { name: 'Range', in: 'header', required: false, description: 'One byte range (`bytes=0-99`, `bytes=100-`, `bytes=-100`); several ranges get the whole content.' },
  { name: 'If-Range', in: 'header', required: false, description: 'An ETag: the Range is honoured only when it names the current content.' },
  { name: 'If-None-Match', in: 'header', required: false, description: 'ETags (or `*`): a match answers 304.' },
]

const contentHeaders: Record<string, string> = {
  ETag: 'The sha256 of the content, quoted.',
  'Content-Type': 'The content type given in upsertFile (or detected from the key).',
  'Content-Length': 'Bytes in the body.',
  'Accept-Ranges': '`bytes`.',
  'Content-Disposition': '`attachment` unless the type is on the inline allowlist (never HTML or SVG); private URLs add the file name.',
  'Content-Security-Policy': 'A sandboxing policy for whatever a browser renders.',
  'X-Content-Type-Options': '`nosniff`.',
  'Cache-Control': '`private, no-cache` (temporary URL) or `public, no-cache` (permanent URL).',
}

const downloadResponses: Record<number, RawRouteResponse> = {
  200: { description: 'The whole content (also when Range is absent, several ranges, or If-Range names another version).', body: 'bytes', headers: contentHeaders },
  206: {
    description: 'The requested byte range.',
    body: 'bytes',
    headers: { ...contentHeaders, 'Content-Range': '`bytes start-end/size`.' },
  },
  304: { description: 'If-None-Match matched the current ETag.', body: 'none', headers: { ETag: 'The sha256 of the content, quoted.' } },
  404: { description: 'The file does not exist, or has no content yet.', body: 'error' },
  416: {
    description: 'The range starts past the end of the content; the wire error body (type InvalidPayload, code 416).',
    body: 'error',
    headers: { 'Content-Range': '`bytes */size`.' },
  },
  500: { description: 'The server could not read the content.', body: 'error' },
}

/**
 * `PUT /v1/content/upload/{fileId}?token=…`: the `uploadUrl` of upsertFile.
 *
 * @example
 * ```ts
 * router.put(toHonoPath(uploadContentRoute.path), handler)
 * ```
 */
export const uploadContentRoute: RawRoute = {
  methods: ['PUT'],
  path: `${CONTENT_PREFIX}/upload/{fileId}`,
  operationId: 'uploadFileContent',
  summary: "Upload a file's content to its uploadUrl",
  description:
    'Authorized by the signed token alone (the official client sends no Authorization header). Streams the body to disk; ' +
    'it must have exactly the size declared in upsertFile (at most 1 GB). Success makes it the content (`upload_completed`); ' +
    'a refused body records `upload_failed` with a `failedStatusReason`.',
  parameters: [
    fileIdParameter,
    tokenParameter('an upload token for one version of the file, valid 1 hour by default'),
    {
      name: 'Content-Length',
      in: 'header',
      required: false,
      description: 'Body size; larger than the declared size is refused at once with 413. Chunked bodies are counted as they arrive.',
      schema: { type: 'integer', minimum: 0 },
    },
    { name: 'Content-Type', in: 'header', required: false, description: 'Any type; the content type of the file is the one given in upsertFile.' },
  ],
  requestBody: { description: 'The raw bytes, any content type, exactly the size declared in upsertFile.' },
  responses: {
    200: { description: 'Stored; the file is `upload_completed`.', body: 'empty-json' },
    400: { description: '`InvalidPayload`: fewer bytes than declared.', body: 'error' },
    403: { description: '`Forbidden`: the token is missing, altered, signed by another server, or expired.', body: 'error' },
    404: { description: '`ResourceNotFound`: the file no longer exists (or was deleted during the upload).', body: 'error' },
    410: { description: '`ResourceGone`: a later upsertFile started a new version; this URL is for an older one.', body: 'error' },
    413: { description: '`PayloadTooLarge`: more bytes than declared, or more than 1 GB.', body: 'error' },
    500: { description: '`Internal`: the server could not store the content (disk full, permissions).', body: 'error' },
  },
}

/**
 * `GET`/`HEAD /v1/content/files/{fileId}?token=…`: the temporary `url` of a private file.
 *
 * @example
 * ```ts
 * router.get(toHonoPath(privateContentRoute.path), handler)
 * ```
 */
export const privateContentRoute: RawRoute = {
  methods: ['GET', 'HEAD'],
  path: `${CONTENT_PREFIX}/files/{fileId}`,
  operationId: 'downloadFileContent',
  summary: "Download a private file's content from its temporary url",
  description: 'Authorized by the signed token alone (15 minutes by default). HEAD answers the same headers without a body.',
  parameters: [fileIdParameter, tokenParameter('a download token for a version of the file'), ...downloadHeaders],
  responses: {
    ...downloadResponses,
    403: { description: '`Forbidden`: the token is missing, altered, signed by another server, or expired.', body: 'error' },
    410: { description: '`ResourceGone`: the file has newer content than this URL was made for; getFile returns a fresh URL.', body: 'error' },
  },
}

/**
 * `GET`/`HEAD /v1/content/public/{fileId}?token=…`: the permanent `url` of a `public_content` file.
 *
 * @example
 * ```ts
 * router.get(toHonoPath(publicContentRoute.path), handler)
 * ```
 */
export const publicContentRoute: RawRoute = {
  methods: ['GET', 'HEAD'],
  path: `${CONTENT_PREFIX}/public/{fileId}`,
  operationId: 'downloadPublicFileContent',
  summary: "Download a public file's content from its permanent url",
  description:
    'Works while the file has the `public_content` access policy; any problem (bad token, no such file, policy removed) is a 404 ' +
    'so the URL reveals nothing. HEAD answers the same headers without a body.',
  parameters: [fileIdParameter, tokenParameter('a permanent token bound to the file id'), ...downloadHeaders],
  responses: downloadResponses,
}
