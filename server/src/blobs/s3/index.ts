export {
  createS3BlobStore,
  MAX_PART_BYTES,
  MIN_PART_BYTES,
  type S3BlobStore,
  type S3BlobStoreOptions,
  type S3Credentials,
} from './s3-blob-store.js'
export { blobStoreOptionsFrom, openS3BlobStore, type BlobConfigSources, type BlobEnv } from './s3-options.js'
export type { PartBufferAccount } from './part-uploader.js'
export { presignS3Get, MAX_PRESIGN_SECONDS, type PresignS3GetInput, type SigningCredentials } from './sigv4-presign.js'
export { s3ObjectUrl, type S3Location } from './s3-object-url.js'
export { quietSdkNodeWarning, SDK_NODE_WARNING_SWITCH } from './sdk-node-warning.js'
