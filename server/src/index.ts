export {
  createApp,
  defaultFeatures,
  type AppAdmin,
  type AppOptions,
  type BootstrapResult,
  type BotshelfApp,
} from './http/app.js'
export { createServer, type RunningServer, type ServerOptions } from './http/server.js'
export type { AppEnv, AppServices, RequestConnection, ServiceFeature } from './http/env.js'
export {
  MemoryRateLimitStore,
  RateLimitOptionError,
  defaultRateLimits,
  parseRateLimitSpec,
  type BucketLimit,
  type MemoryRateLimitStoreOptions,
  type RateLimitDecision,
  type RateLimitOptions,
  type RateLimitStore,
  type ResolvedRateLimits,
} from './http/rate-limit/index.js'
export { defaultTimeouts, type Timeouts } from './http/connections/index.js'
export { ServiceError, invalidFromIssues } from './http/service-error.js'
export { memberRoles, tokenRoles, type MemberRole, type Principal, type TokenRole } from './http/principal.js'
export { createJsonLogger, silentLogger, toLogger, type Logger, type LoggerLike, type LogLevel } from './http/logger.js'
export { createPrettyLogger, type PrettyLoggerOptions } from './http/pretty-logger.js'
export { logThresholds, parseLogThreshold, requestLogLevel, withLogThreshold, type LogThreshold } from './http/log-level.js'
export { ServiceMetrics, metricsFetchHandler, startMetricsServer, type MetricsServer, type RequestObservation } from './metrics/index.js'
export {
  registerOperation,
  registerRoute,
  publicBaseUrl,
  type OperationContext,
  type OperationHandler,
  type OperationRequest,
  type RegisterOptions,
} from './http/index.js'
export {
  AuthStoreError,
  type BotRecord,
  type BotTokenInput,
  type CreateTokenInput,
  type CreatedToken,
  type TokenRecord,
  type TokenScope,
  type WorkspaceTokenInput,
} from './store/index.js'
export { buildOpenApiDocument, type OpenApiOptions, type RawRoute, type RawRouteParameter, type RawRouteResponse } from './http/openapi/index.js'
export {
  createFilesFeature,
  filesFeature,
  filesRoutes,
  filesContentRoutes,
  defaultUrlLifetimes,
  type FilesFeatureOptions,
  type FilesRoutesOptions,
  type UrlLifetimes,
  type DocumentExtractor,
  type ExtractedPassage,
  type IndexingOptions,
} from './files/index.js'
export { EmbedderError, EmbedderUnavailableError, createEmbedderFromEnv, createOfflineEmbedder, createOpenAiCompatibleEmbedder, type Embedder } from './search/embedding/index.js'
export { createTablesFeature, tablesFeature, type TablesFeatureOptions, type TableSearchOptions, tablesRoutes, canAccessTables, tablesOperationAccess, type TablesAccess } from './tables/index.js'
export {
  openBackend,
  openPostgresBackend,
  openSqliteBackend,
  type BackendTarget,
  type PostgresBackend,
  type PostgresBackendOptions,
  type PostgresTablesAdapter,
  type SqliteBackend,
  type SqliteBackendOptions,
} from './store/open-backend.js'
export type {
  AuthPort,
  Backend,
  BackendPorts,
  Clock,
  FilesPort,
  JobQueue,
  JobRecord,
  KnowledgeBasesPort,
  TablesPort,
} from './store/index.js'
export { BotshelfError } from 'botshelf/api'
