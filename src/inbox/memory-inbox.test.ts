import { describeInboxContract } from './inbox.contract.js'
import { createMemoryInbox } from './memory-inbox.js'

describeInboxContract('memory', async () => createMemoryInbox())
