import { startS3TestServer } from './s3-server.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The S3-compatible test server a `globalSetup` started (see {@link setupS3TestServer}). */
    s3TestServer: { endpoint: string; bucket: string; accessKeyId: string; secretAccessKey: string; region: string }
  }
}

/** The bucket the shared test server holds; tests separate their data with a prefix each. */
export const SHARED_TEST_BUCKET = 'botshelf-test'

/**
 * A vitest `globalSetup`: one S3-compatible test server for the whole run, its address given to the tests with
 * `provide` (read it with `inject('s3TestServer')`), stopped and its folder removed after the run.
 *
 * @example
 * ```ts
 * // vitest.config.ts: test: { globalSetup: ['test/helpers/s3-global-setup.ts'] }
 * const { endpoint, bucket } = inject('s3TestServer')
 * ```
 */
export default async function setupS3TestServer(project: { provide(key: 's3TestServer', value: ProvidedS3): void }): Promise<() => Promise<void>> {
  const s3 = await startS3TestServer({ buckets: [SHARED_TEST_BUCKET] })
  project.provide('s3TestServer', {
    endpoint: s3.endpoint,
    bucket: SHARED_TEST_BUCKET,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    region: s3.region,
  })
  return () => s3.stop()
}

type ProvidedS3 = import('vitest').ProvidedContext['s3TestServer']
