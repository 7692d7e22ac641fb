export type { BlobStore, BlobWriteOptions, ByteRange, OpenedBlob, PresignedReadOptions, SweepReport, WrittenBlob } from './blob-store.js'
export { BlobError, BlobTooLargeError, BlobSizeMismatchError, BlobNotFoundError, BlobStorageError, BlobConfigError, type BlobErrorCode } from './errors.js'
export {
  createLocalFolderBlobStore,
  DEFAULT_MAX_BLOB_BYTES,
  nodeBlobFileSystem,
  type BlobFileHandle,
  type BlobFileSystem,
  type LocalFolderBlobStoreOptions,
} from './local-folder-store.js'
export { openConfiguredBlobStore, type ConfiguredBlobStore, type ConfiguredBlobStoreOptions } from './configured-blob-store.js'
export { blobStoreOptionsFrom, openS3BlobStore, type BlobConfigSources, type BlobEnv } from './s3/s3-options.js'
