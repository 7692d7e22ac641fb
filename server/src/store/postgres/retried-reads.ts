import { readOnlyPortMethods } from '../port-methods.js'

/**
 * The methods that only read: run again once when the connection was lost under them (a restarted database),
 * since running a read twice changes nothing.
 *
 * @example
 * ```ts
 * readOnlyMethods.has('getByKey') // true
 * ```
 */
export const readOnlyMethods: ReadonlySet<string> = new Set<string>([
  ...readOnlyPortMethods.auth,
  ...readOnlyPortMethods.files,
  ...readOnlyPortMethods.knowledgeBases,
  ...readOnlyPortMethods.jobs,
  ...readOnlyPortMethods.webhooks,
])
