/** Bot ids the fakes made up (an event built without `botId`): placeholders a test bot adopts as its own. */
const madeUp = new Set<string>()

/**
 * Remembers a bot id a fake made up, so that `createTestBot` can tell it from a bot id the test chose.
 *
 * @example
 * ```ts
 * rememberMadeUpBotId('bot_4f2a')
 * ```
 */
export function rememberMadeUpBotId(botId: string): void {
  madeUp.add(botId)
}

/**
 * Whether a fake made this bot id up (the test gave none).
 *
 * @example
 * ```ts
 * isMadeUpBotId(fakeTextEvent('hi').botId) // true
 * isMadeUpBotId(fakeTextEvent('hi', { botId: 'support' }).botId) // false
 * ```
 */
export function isMadeUpBotId(botId: string): boolean {
  return madeUp.has(botId)
}
