import { describe, expect, it } from 'vitest'
import { createS3BlobStore } from './s3-blob-store.js'
import { quietSdkNodeWarning, SDK_NODE_WARNING_SWITCH } from './sdk-node-warning.js'

describe('quietSdkNodeWarning', () => {
  it('turns the SDK warning off below Node 22 only', () => {
    const on20: NodeJS.ProcessEnv = {}
    quietSdkNodeWarning(on20, '20.20.2')
    expect(on20[SDK_NODE_WARNING_SWITCH]).toBe('true')
    const on22: NodeJS.ProcessEnv = {}
    quietSdkNodeWarning(on22, '22.23.5')
    expect(on22[SDK_NODE_WARNING_SWITCH]).toBeUndefined()
  })

  it("keeps the operator's own setting", () => {
    const env: NodeJS.ProcessEnv = { [SDK_NODE_WARNING_SWITCH]: 'false' }
    quietSdkNodeWarning(env, '20.20.2')
    expect(env[SDK_NODE_WARNING_SWITCH]).toBe('false')
  })

  it('leaves no Node version warning when an S3 store is made (the SDK checks in its client constructor)', async () => {
    const warnings: string[] = []
    const listener = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`)
    process.on('warning', listener)
    try {
      const store = createS3BlobStore({ bucket: 'quiet', endpoint: 'http://127.0.0.1:9', forcePathStyle: true, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } })
      store.close()
      // process.emitWarning delivers on a later tick.
      await new Promise((resolve) => setTimeout(resolve, 0))
    } finally {
      process.off('warning', listener)
    }
    expect(warnings.filter((line) => /node/i.test(line) && /AWS SDK/.test(line))).toEqual([])
  })
})
