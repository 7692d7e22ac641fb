export { defineHook, type Hook, type HookDefinition, type HookResult, type StopProcessing, type AnyHook } from './define-hook.js'
export {
  defineAction,
  type Action,
  type ActionDefinition,
  type ActionContext,
  type ActionInput,
  type ActionOutput,
  type AnyAction,
} from './define-action.js'
export {
  createRuntime,
  DEFAULT_TIMEOUT_MS,
  type Runtime,
  type RuntimeOptions,
  type ClientFactory,
  type DispatchReport,
  type HookReport,
  type SkipReason,
  type RunActionOptions,
  type ActionCall,
} from './create-runtime.js'
export { defineBot, type Bot, type BotSpec } from './define-bot.js'
export { workflowColumnsHook, type WorkflowColumnsHookOptions } from './workflow-columns.js'
export {
  StateConflictError,
  createMemoryStateStore,
  createTableStateStore,
  DEFAULT_STATE_TABLE,
  stateScopes,
  stateKey,
  type StateStore,
  type StateStoreContext,
  type StoredState,
  type StateWrite,
  type MemoryStateStore,
  type TableStateStoreOptions,
  type StateScope,
  type StateSchemas,
  type StateValues,
  type StateExpiry,
  type StateChange,
} from './state/index.js'
export { hookPoints, pointsFor, isHookPoint, type HookPoint, type BeforePoint, type DirectionOfPoint } from './hook-points.js'
export type { HandlerContext, HookContext, HookEvent, BotTypes, AnyBotTypes, RunActionFromHook } from './context.js'
// The logger lives in ../logging (shared with the service); these are the names bot code uses.
export {
  createJsonLogger,
  toLogger,
  type Logger,
  type LoggerLike,
  type LevelLogger,
  type LogLevel,
  type LogFields,
  type LogRecord,
  type JsonLoggerOptions,
} from '../logging/index.js'
export {
  BotRuntimeError,
  RuntimeDefinitionError,
  HookError,
  ActionError,
  ActionNotFoundError,
  ActionInputError,
  ActionOutputError,
  ActionFailedError,
  ActionTimeoutError,
  type RuntimeDefinitionErrorCode,
  type HookErrorCode,
} from './errors.js'
export { searchKnowledgeBases, type KnowledgeBaseResult, type KnowledgeBaseSearchOptions } from './knowledge-base-search.js'
