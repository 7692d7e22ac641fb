// What `GET /v1/whoami` says about the signed-in token, and what the console may offer it.

/** A bot as the admin routes list it. */
export interface BotSummary {
  id: string
  name: string
  createdAt: string
}

/** The answer of `GET /v1/whoami`. */
export interface Identity {
  tokenId: string
  scope: 'bot' | 'workspace'
  kind: 'bot' | 'integration' | 'member'
  /** The member role, or `bot` / `integration` for those token kinds. */
  role: string
  integrationName: string | null
  bots: BotSummary[]
  canAdminister: boolean
}

/** What the console shows or hides for a token; the service refuses the rest anyway. */
export interface Capabilities {
  readFiles: boolean
  writeFiles: boolean
  deleteFiles: boolean
  readTables: boolean
  writeTables: boolean
  administer: boolean
  /** Viewers and the managing roles read subscriptions (never their secrets); integrations and billing managers do not. */
  readWebhooks: boolean
  manageWebhooks: boolean
}

const webhookManagers = new Set(['bot', 'developer', 'manager', 'administrator'])
const writerRoles = new Set(['bot', 'integration', 'developer', 'manager', 'administrator'])

/**
 * The console's reading of the permission tables (docs/files-api.md and docs/tables-api.md, "Permissions"):
 * viewers read, billing managers see neither files nor tables, the other roles write. An integration may still be
 * refused a file it does not own; the service's 403 then shows as the error.
 *
 * @example
 * ```ts
 * capabilitiesOf({ role: 'viewer', ... }).deleteFiles // false
 * ```
 */
export function capabilitiesOf(identity: Pick<Identity, 'role' | 'canAdminister'>): Capabilities {
  const reads = identity.role !== 'billing_manager'
  const writes = writerRoles.has(identity.role)
  return {
    readFiles: reads,
    writeFiles: writes,
    deleteFiles: writes,
    readTables: reads,
    writeTables: writes,
    administer: identity.canAdminister,
    readWebhooks: identity.role === 'viewer' || webhookManagers.has(identity.role),
    manageWebhooks: webhookManagers.has(identity.role),
  }
}
