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
export { EXPIRE_FILES_JOB, expireFilesJob, scheduleExpiry } from './expire-files-job.js'
export { FilesService, type ExistingFileCheck, type FilesEvent, type FilesEventListener } from './files-service.js'
export { contentTypeFromKey, isInlineSafe } from './content-type.js'
export {
  INDEX_FILE_JOB,
  enqueueIndexing,
  failDeadIndexingJobs,
  indexAfterContentCommit,
  indexFileJob,
  prepareGivenPassages,
  type DocumentExtractor,
  type ExtractedPassage,
  type GivenPassage,
  type IndexFilePayload,
  type IndexingOptions,
  type PreparedPassage,
} from '../search/indexing/index.js'
export { registerSearchRoutes, shapeResults, resultFile, passageMeta, toWirePassage, type PassagesAround, type ResultShape } from '../search/files/index.js'
