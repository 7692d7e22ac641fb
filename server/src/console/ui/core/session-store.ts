/** What the console keeps of a sign-in: the token and the bot being looked at. */
export interface StoredSession {
  token: string
  botId: string
}

const KEY = 'botshelf.console.session'

/**
 * The session of this tab (sessionStorage: it ends with the tab and is not shared with other tabs).
 *
 * @example
 * ```ts
 * const saved = loadSession()
 * ```
 */
export function loadSession(): StoredSession | undefined {
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as StoredSession | null
    return value && typeof value.token === 'string' && typeof value.botId === 'string' ? value : undefined
  } catch {
    return undefined
  }
}

/** Keeps the session for this tab. @example `saveSession({ token, botId })` */
export function saveSession(session: StoredSession): void {
  sessionStorage.setItem(KEY, JSON.stringify(session))
}

/** Forgets the session (sign out). @example `clearSession()` */
export function clearSession(): void {
  sessionStorage.removeItem(KEY)
}
