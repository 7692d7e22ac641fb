import { Client, type ClientOptions } from '../../src/client/index.js'
import { filesFeature } from '../../server/src/files/feature.js'
import { tablesFeature } from '../../server/src/tables/feature.js'
import { startTestService, type TestCaller, type TestService, type TestServiceOptions } from '../helpers/service.js'

/** The real service (files + tables) and botshelf clients bound to it. */
export interface ClientTestService extends TestService {
  /** A botshelf client for a caller: in process through `app.fetch`, or over the port when listening. */
  client(caller?: TestCaller, options?: ClientOptions): Client
}

/**
 * Starts the real service with the Files and Tables features on a temp data dir (see
 * test/helpers/service.ts), and makes botshelf clients for its callers.
 *
 * @example
 * ```ts
 * const service = await startClientService()
 * const client = service.client('bot')
 * await client.uploadFile({ key: 'a.txt', content: 'hi' })
 * ```
 */
export async function startClientService(options: TestServiceOptions = {}): Promise<ClientTestService> {
  const service = await startTestService({ features: [filesFeature, tablesFeature], ...options })
  const listening = options.listen === true
  return Object.assign(service, {
    client(caller: TestCaller = 'bot', clientOptions: ClientOptions = {}): Client {
      return new Client({
        apiUrl: service.url,
        token: service.tokens[caller],
        botId: caller === 'otherBot' ? service.otherBotId : service.botId,
        ...(listening ? {} : { fetch: (request: Request) => service.app.fetch(request) }),
        ...clientOptions,
      })
    },
  })
}
