import { z } from 'zod'
import { filesLimits } from './limits.js'

/**
 * Access policies of a file (docs/wire-format.md §6): `public_content` makes the content readable through a permanent URL,
 * `integrations` lets every integration of the bot read, search and list the file.
 *
 * @example
 * ```ts
 * AccessPolicySchema.parse('public_content')
 * ```
 */
export const AccessPolicySchema = z.enum(['public_content', 'integrations'])

/** An access policy. */
export type AccessPolicy = z.infer<typeof AccessPolicySchema>

/**
 * File statuses (docs/wire-format.md §11): `upload_*` for the content, `indexing_*` once content of a file with
 * `index: true` landed (or after `setFilePassages`); docs/search.md, "Status and failures".
 *
 * @example
 * ```ts
 * FileStatusSchema.parse('upload_completed')
 * ```
 */
export const FileStatusSchema = z.enum([
  'upload_pending',
  'upload_completed',
  'upload_failed',
  'indexing_pending',
  'indexing_completed',
  'indexing_failed',
])

/** A file status. */
export type FileStatus = z.infer<typeof FileStatusSchema>

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/
/**
 * What a key never holds (decision 1464): C0 and C1 controls and DEL, the line and paragraph separators, and the
 * bidirectional embeddings, overrides and isolates that make a name display as another (`invoice\u202Efdp.exe`).
 */
// eslint-disable-next-line no-control-regex, no-misleading-character-class
const KEY_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/
/** What a tag value never holds: C0 and C1 controls and DEL (issue 28: they reached terminals raw). */
// eslint-disable-next-line no-control-regex
const VALUE_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f]/

function describeForbidden(text: string, forbidden: RegExp): string {
  const found = forbidden.exec(text)?.[0] ?? ''
  return `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
}

/**
 * A file key: 1 to 1024 characters in Unicode NFC, without control characters (C0, DEL, C1), line or paragraph
 * separators, or bidirectional overrides and isolates (decision 1464). Keys are names, never paths on disk. A key in
 * another normal form is refused rather than normalised, so that one name is never two files ("café" typed on macOS
 * arrives decomposed): the message says so.
 *
 * @example
 * ```ts
 * FileKeySchema.parse('reports/2026/q3.pdf')
 * ```
 */
export const FileKeySchema = z
  .string()
  .min(1)
  .max(filesLimits.keyMaxLength)
  .superRefine((key, context) => {
    if (KEY_FORBIDDEN.test(key)) {
      context.addIssue({
        code: 'custom',
        message: `expected no control characters (U+0000 to U+001F, U+007F to U+009F), line separators or bidirectional controls (U+202A to U+202E, U+2066 to U+2069); received ${describeForbidden(key, KEY_FORBIDDEN)}`,
      })
    } else if (key.normalize('NFC') !== key) {
      context.addIssue({ code: 'custom', message: 'expected a key in Unicode NFC (composed) form; received another form: send key.normalize("NFC")' })
    }
  })

/**
 * A tag key: 1 to 100 characters, no control characters.
 *
 * @example
 * ```ts
 * TagKeySchema.parse('category')
 * ```
 */
export const TagKeySchema = z
  .string()
  .min(1)
  .max(filesLimits.tagKeyMaxLength)
  .refine((key) => !CONTROL_CHARACTERS.test(key), { message: 'expected no control characters' })

/**
 * A tag value: a string of at most 1000 characters (docs/wire-format.md §10), without control characters (C0, DEL,
 * C1), which would reach terminals and logs raw.
 *
 * @example
 * ```ts
 * TagValueSchema.parse('Sales')
 * ```
 */
export const TagValueSchema = z
  .string()
  .max(filesLimits.tagValueMaxLength)
  .refine((value) => !VALUE_FORBIDDEN.test(value), { message: 'expected no control characters (U+0000 to U+001F, U+007F to U+009F)' })

function tooManyTags(tags: Record<string, unknown>): boolean {
  return Object.keys(tags).length > filesLimits.tagsMaxCount
}

const tooManyTagsMessage = { message: `expected at most ${filesLimits.tagsMaxCount} tags` }

/**
 * The tags of a file: `{ key: value }`, at most 50 of them.
 *
 * @example
 * ```ts
 * FileTagsSchema.parse({ category: 'Sales' })
 * ```
 */
export const FileTagsSchema = z.record(TagKeySchema, TagValueSchema).refine((tags) => !tooManyTags(tags), tooManyTagsMessage)

/**
 * A tag patch (updateFileMetadata, updateKnowledgeBase): a value sets the tag, `null` deletes it.
 *
 * @example
 * ```ts
 * FileTagsPatchSchema.parse({ category: 'Sales', old: null })
 * ```
 */
export const FileTagsPatchSchema = z
  .record(TagKeySchema, TagValueSchema.nullable())
  .refine((tags) => !tooManyTags(tags), tooManyTagsMessage)

/**
 * The size of metadata as stored: its UTF-8 JSON bytes (`null` values of a patch count as deletions first).
 *
 * @example
 * ```ts
 * metadataBytes({ source: 'crm' }) // 16
 * ```
 */
export function metadataBytes(metadata: Record<string, unknown>): number {
  return Buffer.byteLength(JSON.stringify(metadata), 'utf8')
}

/**
 * Free-form metadata of a file: `{ key: any JSON value }`, at most 1 MiB as JSON, the files payload limit
 * (decision 1441): whatever fits a valid request is accepted.
 *
 * @example
 * ```ts
 * FileMetadataSchema.parse({ source: 'crm', pages: 3 })
 * ```
 */
export const FileMetadataSchema = z.record(z.string(), z.unknown()).check((ctx) => {
  const bytes = metadataBytes(ctx.value)
  if (bytes > filesLimits.metadataMaxBytes)
    ctx.issues.push({ code: 'custom', input: ctx.value, message: `expected at most ${filesLimits.metadataMaxBytes} bytes of metadata as JSON, received ${bytes}` })
})

/**
 * Who owns a file: the bot, an integration (by name and alias) or a user (docs/wire-format.md §10).
 *
 * @example
 * ```ts
 * FileOwnerSchema.parse({ type: 'integration', name: 'webchat', alias: 'webchat' })
 * ```
 */
export const FileOwnerSchema = z.object({
  type: z.enum(['bot', 'integration', 'user']),
  id: z.string().optional(),
  name: z.string().optional(),
  alias: z.string().optional(),
})

/** The owner of a file. */
export type FileOwner = z.infer<typeof FileOwnerSchema>

/**
 * The File object of the wire format (docs/wire-format.md §10): 14 required fields and three optional ones.
 *
 * @example
 * ```ts
 * const { file } = await client.getFile({ id: 'reports/q3.pdf' })
 * FileSchema.parse(file)
 * ```
 */
export const FileSchema = z.strictObject({
  id: z.string(),
  botId: z.string(),
  key: z.string(),
  url: z.string(),
  size: z.number().int().nonnegative().nullable(),
  contentType: z.string(),
  tags: z.record(z.string(), z.string()),
  metadata: FileMetadataSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  accessPolicies: z.array(AccessPolicySchema),
  index: z.boolean(),
  status: FileStatusSchema,
  failedStatusReason: z.string().optional(),
  expiresAt: z.string().optional(),
  owner: FileOwnerSchema,
  indexingStack: z.enum(['v1', 'v2']).optional(),
})

/** A File object as the API returns it. */
export type File = z.infer<typeof FileSchema>

/**
 * The File object of the `upsertFile` answer: the file plus the `uploadUrl` to PUT the content to.
 *
 * @example
 * ```ts
 * const { file } = await client.upsertFile({ key: 'a.txt', size: 5 })
 * await fetch(file.uploadUrl, { method: 'PUT', body: 'hello' })
 * ```
 */
export const UploadableFileSchema = FileSchema.extend({ uploadUrl: z.string() })

/** A File with its upload URL. */
export type UploadableFile = z.infer<typeof UploadableFileSchema>
