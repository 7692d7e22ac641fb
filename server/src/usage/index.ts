export { measureWorkspaceUsage, type BotUsage, type WorkspaceUsage, type UsageSources } from './workspace-usage.js'
export { fileStorageQuotaExceeded, vectorStorageQuotaExceeded, type StorageQuotas } from './quotas.js'
