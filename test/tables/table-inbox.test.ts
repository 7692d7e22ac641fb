// The table inbox through a real server, with botshelf's client and with the official @botpress/client (the calls
// the Botpress cloud tables API takes), against the same contract as the memory inbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../src/client/index.js'
import { describeInboxContract } from '../../src/inbox/inbox.contract.js'
import { createTableInbox, type TableInboxOptions } from '../../src/inbox/index.js'
import { startTestService, type TestService } from '../helpers/service.js'

let service: TestService
let tables = 0
beforeAll(async () => {
  service = await startTestService({ listen: true })
})
afterAll(() => service.close())

const botshelfClient = () => new Client({ apiUrl: service.url, token: service.tokens.bot, botId: service.botId })

describeInboxContract('table, botshelf client', async () => createTableInbox({ client: botshelfClient(), table: `inbox${++tables}Table` }))
describeInboxContract('table, @botpress/client', async () =>
  createTableInbox({ client: service.botpressClient('bot') as unknown as TableInboxOptions['client'], table: `inbox${++tables}Table` }),
)

describe('createTableInbox', () => {
  it('refuses an event larger than a row holds with a clear error, before any write', async () => {
    const inbox = createTableInbox({ client: botshelfClient(), table: 'tinyInboxTable', factor: 1 })
    await expect(inbox.add({ id: 'msg_big', key: 'b/c', body: 'x'.repeat(4000), receivedAt: 1 })).rejects.toMatchObject({
      code: 'INBOX_ENTRY_TOO_LARGE',
      message: 'Event: expected at most 3072 bytes for the inbox table "tinyInboxTable" (4 KB × factor 1), received 4000',
    })
  })

  it('refuses bad options naming the field', () => {
    expect(() => createTableInbox({ client: botshelfClient(), table: 'inbox' })).toThrow('table: expected a table name ending in "Table"')
    expect(() => createTableInbox({ client: botshelfClient(), factor: 31 })).toThrow('factor: expected an integer from 1 to 30, received 31')
    expect(() => createTableInbox({ client: undefined as never })).toThrow('client: expected a storage client')
  })
})
