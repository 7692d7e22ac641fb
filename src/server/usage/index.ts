export { measureWorkspaceUsage, type BotUsage, type WorkspaceUsage, type UsageSources } from './workspace-usage.js'
