/** The AWS SDK's switch for its Node version warning (read when the first S3 client is made). */
export const SDK_NODE_WARNING_SWITCH = 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'

/**
 * Turns off the AWS SDK's warning on Node 20 that its releases after January 2027 will need Node 22. botshelf pins
 * the SDK's version, so the warning is about releases it does not run, and Node 20 is supported while CI passes on
 * it (decision 1451); printed on every `botshelf serve --blobs s3://...`, it reads like a fault. Only below Node 22
 * (where the SDK warns), and an operator's own setting of the switch wins.
 *
 * @example
 * ```ts
 * quietSdkNodeWarning()
 * const client = new S3Client({ region })
 * ```
 */
export function quietSdkNodeWarning(env: NodeJS.ProcessEnv = process.env, nodeVersion: string = process.versions.node): void {
  const major = Number(nodeVersion.split('.')[0])
  if (major < 22 && env[SDK_NODE_WARNING_SWITCH] === undefined) env[SDK_NODE_WARNING_SWITCH] = 'true'
}
