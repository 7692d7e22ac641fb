// The wire schemas shared by the client and the server. The files/ and tables/ indexes name their own exports.
export { errorTypes, errorTypeNames, isErrorType, type ErrorType } from './error-types.js'
export { ErrorBodySchema, newErrorId, type ErrorBody } from './error-body.js'
export { ListMetaSchema, type ListMeta } from './pagination.js'
export { inputBounds } from './input-bounds.js'
export { defineOperation, type Operation, type HttpMethod } from './operation.js'
export * from './files/index.js'
export * from './tables/index.js'
export * from './webhooks/index.js'
export { memberRoles, tokenRoles, type MemberRole, type Principal, type TokenRole } from './principal.js'
// The readable-issue helpers the service formats its refusals with.
export { toReadableIssues, formatIssues, formatPath, describeValue, shortPath, type ReadableIssue } from '../issues/index.js'
// The one base error class of every botshelf error (the service's included).
export { BotshelfError } from '../errors/index.js'
// The one clock type and the real clock.
export { systemClock, toClock, clockMs, type Clock, type ClockLike } from '../clock/index.js'
// The one logger, its levels and the JSON logger (the service adds its pretty printer).
export {
  logThresholds,
  parseLogThreshold,
  passesThreshold,
  toLogger,
  createRecordLogger,
  silentLogger,
  createJsonLogger,
  withLogThreshold,
  type LogLevel,
  type LogThreshold,
  type Logger,
  type LoggerLike,
  type LevelLogger,
  type LogFields,
  type LogRecord,
  type JsonLoggerOptions,
} from '../logging/index.js'
// The one bounded cache of the service's memos and caches.
export { BoundedMap, type EvictionPolicy } from '../bounded-map/index.js'
