import { describe, expect, it } from 'vitest'
import { loadInProcessService } from './in-process-service.js'

describe('loadInProcessService', () => {
  it('loads the service package when it is installed (a workspace here)', async () => {
    const service = await loadInProcessService()
    expect(typeof service.createApp).toBe('function')
  })

  it('fails at once, naming the package to add, when the service package is not installed', async () => {
    const missing = 'botshelf-server-not-installed'
    const failure = await loadInProcessService(missing).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(Error)
    expect((failure as Error).message).toContain(`npm install --save-dev ${missing}`)
    expect((failure as Error).message).toContain('botshelf/testing need only botshelf')
  })
})
