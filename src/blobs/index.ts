export type { BlobStore, BlobWriteOptions, ByteRange, OpenedBlob, SweepReport, WrittenBlob } from './blob-store.js'
export { BlobError, BlobTooLargeError, BlobSizeMismatchError, BlobNotFoundError } from './errors.js'
export {
  createLocalFolderBlobStore,
  DEFAULT_MAX_BLOB_BYTES,
  nodeBlobFileSystem,
  type BlobFileHandle,
  type BlobFileSystem,
  type LocalFolderBlobStoreOptions,
} from './local-folder-store.js'
