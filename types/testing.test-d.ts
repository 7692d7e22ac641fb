import { expectError, expectType } from 'tsd'
import type { BotEvent } from 'botshelf'
import { createFakeClock, fakeEvent, fakeImageEvent, fakeTextEvent, signWebhookRequest } from 'botshelf/testing'

expectType<BotEvent>(fakeEvent())
expectType<BotEvent>(fakeEvent({ direction: 'outgoing', tags: { conversation: { topic: 'x' } } }, { seed: 3 }))
fakeEvent({ createdOn: '2024-01-01T00:00:00Z' })
fakeEvent({ createdOn: new Date() })
fakeEvent({ trigger: { flowId: 'f' } })

// Wrong overrides are rejected.
expectError(fakeEvent({ direction: 'sideways' }))
expectError(fakeEvent({ conversationID: 'typo' }))
expectError(fakeEvent({ botId: 42 }))
expectError(fakeEvent({ tags: { conversation: { topic: 1 } } }))
expectError(fakeEvent({ trigger: { flowId: 1 } }))
expectError(fakeEvent({}, { seed: 'one' }))

expectType<string>(fakeTextEvent('hi').payload.text)
expectType<'text'>(fakeTextEvent('hi').type)
expectType<string>(fakeImageEvent().payload.imageUrl)
expectError(fakeImageEvent({ imageUrl: 3 }))

expectType<Request>(signWebhookRequest({ payload: fakeEvent(), secret: 'whsec_x' }))
expectType<Date>(createFakeClock().now())
