export { createFilesFeature, filesFeature, type FilesFeatureOptions } from './feature.js'
export { filesRoutes, type FilesRoutesOptions } from './routes.js'
export { filesContentRoutes } from './content-routes.js'
export { defaultUrlLifetimes, type UrlLifetimes } from './content-urls.js'
export {
  canAccessFile,
  canCreateFile,
  canUseFiles,
  canManageKnowledgeBases,
  listScopeFor,
  ownerFor,
  type FileAction,
  type FileAccessFacts,
} from './permissions.js'
export { startExpirySweeper, type ExpirySweeper } from './expiry-sweeper.js'
export { contentTypeFromKey, isInlineSafe } from './content-type.js'
