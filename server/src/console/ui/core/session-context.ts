import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { ConsoleApi } from './api.js'
import type { Capabilities, Identity } from './identity.js'

/** The signed-in session every page reads. */
export interface ConsoleSession {
  api: ConsoleApi
  identity: Identity
  can: Capabilities
  /** Whether the service answers `searchFiles` (anything but 405), so the Search tab shows. */
  searchAvailable: boolean
}

/** Context of the signed-in session. */
export const SessionContext = createContext<ConsoleSession | undefined>(undefined)

/** The signed-in session (inside the signed-in layout only). @example `const { api, can } = useSession()` */
export function useSession(): ConsoleSession {
  const session = useContext(SessionContext)
  if (!session) throw new Error('useSession: no session (only pages inside the signed-in layout may call it)')
  return session
}
