export { createJsonLogger, silentLogger, toLogger, writeToStdout, type Logger, type LoggerLike, type LogLevel } from './logger.js'
export { createPrettyLogger, type PrettyLoggerOptions } from './pretty-logger.js'
export { logThresholds, parseLogThreshold, requestLogLevel, withLogThreshold, type LogThreshold } from './log-level.js'
export { errorBodyText, errorResponse, handleError, reportServerError, toServiceError } from './error-handler.js'
export { notFoundHandler } from './not-found.js'
export { FILES_JSON_LIMIT, TABLES_JSON_LIMIT, jsonLimitFor, readBodyText, readJsonBody } from './body.js'
export { coerceToSchema, parseQuery } from './query.js'
export { requestContext } from './request-context.js'
export { publicBaseUrl } from './public-url.js'
export {
  registerDirectOperation,
  registerOperation,
  registerRoute,
  type DirectOperationRoute,
  type MountedOperation,
  type OperationRoute,
  type RawRouteDeclaration,
  type RouteDeclaration,
} from './register-route.js'
export {
  directOperations,
  registeredOperations,
  toHonoPath,
  type DirectOperation,
  type DirectOperationContext,
  type DirectOperationHandler,
  type OperationContext,
  type OperationHandler,
  type OperationRequest,
  type RegisterOptions,
} from './register-operation.js'
export { createDirectLane, type DirectLane, type DirectLaneOptions } from './direct-lane.js'
export { declaredLength, recordRequest, DEFAULT_SLOW_REQUEST_MS, type RequestRecord } from './pipeline/record.js'
export { answerOperation, authenticateCaller, beginRequest, errorAnswer, operationInput, takeOneRequest } from './pipeline/index.js'
export { requestOrigin } from './request-origin.js'
export { jsonText } from './json-text.js'
