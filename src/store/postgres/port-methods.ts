export { portMethods } from '../port-methods.js'

/**
 * The methods that only read: run again once when the connection was lost under them (a restarted database),
 * since running a read twice changes nothing.
 */
export const readOnlyMethods: ReadonlySet<string> = new Set([
  'listBots',
  'getBot',
  'authenticate',
  'listTokens',
  'getById',
  'getAnyById',
  'getByKey',
  'blobInUse',
  'usage',
  'list',
  'listTagKeys',
  'listTagValues',
  'get',
  'nextDueAt',
])
