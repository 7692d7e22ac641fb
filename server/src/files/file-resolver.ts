import type { FileRecord, FilesPort } from '../store/index.js'
import type { Principal } from '../http/principal.js'
import { ServiceError } from '../http/service-error.js'
import { canAccessFile, canUseFiles, ownerFor, type FileAction } from './permissions.js'

/**
 * Finds the file an `{id}` path parameter names (a file id or a key) and checks the caller may perform
 * `action` on it. A key resolves in the caller's own key scope first (an integration's own files, else the
 * bot's), then among the other files with that key the caller may read, oldest first.
 * A file the caller may not even read is answered as `ResourceNotFound` (its existence is not revealed); a
 * file it may read but not change gives `Forbidden`.
 *
 * @example
 * ```ts
 * const file = await resolveFile(backend.files, principal, 'reports/q3.pdf', 'delete')
 * ```
 */
export async function resolveFile(files: FilesPort, principal: Principal, idOrKey: string, action: FileAction): Promise<FileRecord> {
  if (!canUseFiles(principal)) throw new ServiceError('Forbidden', 'This role (billing_manager) has no access to files')
  const readable = (file: FileRecord): boolean => canAccessFile(principal, 'read', file)
  let found: FileRecord | undefined
  const byId = idOrKey.startsWith('file_') ? await files.getById(principal.botId, idOrKey) : undefined
  if (byId && readable(byId)) found = byId
  else {
    const { scope } = ownerFor(principal)
    const candidates = (await files.getByKey(principal.botId, idOrKey)).filter(readable)
    found = candidates.find((file) => file.ownerScope === scope) ?? candidates[0]
  }
  if (!found) throw new ServiceError('ResourceNotFound', `File ${JSON.stringify(idOrKey)} not found`, { id: idOrKey })
  if (!canAccessFile(principal, action, found)) {
    throw new ServiceError('Forbidden', `This caller may read file ${JSON.stringify(found.key)} but not ${action} it`, { id: found.id })
  }
  return found
}
