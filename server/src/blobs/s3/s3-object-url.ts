import { sigV4Encode } from './sigv4-presign.js'

/** Where a bucket lives: what decides the URL of one of its objects. */
export interface S3Location {
  bucket: string
  region: string
  /** A custom endpoint (`http://127.0.0.1:9000`, `https://<account>.r2.cloudflarestorage.com`); AWS when absent. */
  endpoint?: string
  /** Bucket in the path (`<endpoint>/<bucket>/<key>`) instead of the host name (`<bucket>.<endpoint>/<key>`). */
  forcePathStyle?: boolean
}

/** A bucket name that can be a DNS label under TLS: no dots (they break the `*.s3...` certificate), lowercase. */
const VIRTUAL_HOSTABLE = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/

/**
 * The URL of an object, addressed as the AWS SDK addresses it with the same settings: virtual-hosted style
 * (`https://bucket.s3.region.amazonaws.com/key`) unless path style is forced or the bucket name cannot be a host
 * name; each key segment percent-encoded once.
 *
 * @example
 * ```ts
 * s3ObjectUrl({ bucket: 'content', region: 'us-east-1', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true }, 'blobs/blob_01')
 * // URL 'http://127.0.0.1:9000/content/blobs/blob_01'
 * ```
 */
export function s3ObjectUrl(location: S3Location, key: string): URL {
  const encodedKey = key.split('/').map(sigV4Encode).join('/')
  const pathStyle = location.forcePathStyle === true || !VIRTUAL_HOSTABLE.test(location.bucket)
  const base = location.endpoint
    ? new URL(location.endpoint)
    : new URL(`https://s3.${location.region}.amazonaws.com${location.region.startsWith('cn-') ? '.cn' : ''}`)
  const basePath = base.pathname.replace(/\/+$/, '')
  if (pathStyle) return new URL(`${base.protocol}//${base.host}${basePath}/${sigV4Encode(location.bucket)}/${encodedKey}`)
  return new URL(`${base.protocol}//${location.bucket}.${base.host}${basePath}/${encodedKey}`)
}
