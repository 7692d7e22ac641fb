export type { BlobsReferenced, BlobStore, BlobWriteOptions, ByteRange, OpenedBlob, PresignedReadOptions, SweepReport, WrittenBlob } from './blob-store.js'
export { BlobError, BlobTooLargeError, BlobSizeMismatchError, BlobNotFoundError, BlobStorageError, BlobConfigError, type BlobErrorCode } from './errors.js'
export {
  createLocalFolderBlobStore,
  DEFAULT_MAX_BLOB_BYTES,
  nodeBlobFileSystem,
  type BlobFileHandle,
  type BlobFileSystem,
  type LocalFolderBlobStoreOptions,
} from './local-folder-store.js'
// The S3 adapter and the configuration that opens it are imported from their own modules
// (`./configured-blob-store.js`, `./s3/index.js`): their declarations reach the AWS SDK's, which this index, read by
// every part of the service, must not pull in.
