export {
  fakeEvent,
  fakeUntypedEvent,
  fakeEventOfType,
  resetFakes,
  FAKE_EVENT_STEP_MS,
  fakeTextEvent,
  fakeMarkdownEvent,
  fakeImageEvent,
  fakeAudioEvent,
  fakeVideoEvent,
  fakeFileEvent,
  fakeLocationEvent,
  fakeCardEvent,
  fakeCarouselEvent,
  fakeChoiceEvent,
  fakeDropdownEvent,
  FAKE_EVENT_TIME,
  type FakeEventOverrides,
  type FakeEventOptions,
  type FakeEventOf,
} from './fake-event.js'
export { signWebhookRequest, type SignWebhookRequestOptions } from './sign-webhook-request.js'
export { createFakeClock, type FakeClock } from './fake-clock.js'
export { createMemoryLogger, type MemoryLogger } from './memory-logger.js'
export { createTestBot, TEST_BOT_ID, type TestBot, type TestBotOptions, type StorageWrite } from './create-test-bot.js'
export { startConversation, type Conversation, type ConversationOptions, type TranscriptTurn } from './conversation.js'
export { botshelfMatchers, type BotshelfMatchers } from './matchers.js'
export { seededRandom } from './seeded-random.js'
