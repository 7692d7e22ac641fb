import { newUlid } from '../ulid.js'

/**
 * A file id in the wire format's style: `file_` + ULID.
 *
 * @example
 * ```ts
 * newFileId(new Date()) // 'file_01K86HD0D5T3HFCGBEKQJFNKAD'
 * ```
 */
export function newFileId(now: Date): string {
  return `file_${newUlid(now)}`
}

/**
 * A knowledge base id: `kb_` + ULID.
 *
 * @example
 * ```ts
 * newKnowledgeBaseId(new Date()) // 'kb_01K86HD0D5T3HFCGBEKQJFNKAD'
 * ```
 */
export function newKnowledgeBaseId(now: Date): string {
  return `kb_${newUlid(now)}`
}
