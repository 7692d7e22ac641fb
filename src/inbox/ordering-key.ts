/**
 * The ordering key of an event: its bot and conversation, so that events of one conversation run one at a time and
 * in order. An event without a conversation is keyed by its user, and without either by its own id (it waits for
 * nothing).
 *
 * @example
 * ```ts
 * orderingKey({ id: 'evt_1', botId: 'bot_1', conversationId: 'conv_9' }) // 'bot_1/conv_9'
 * ```
 */
export function orderingKey(event: { id: string; botId: string; conversationId?: string | undefined; userId?: string | undefined }): string {
  if (event.conversationId) return `${event.botId}/${event.conversationId}`
  if (event.userId) return `${event.botId}/user:${event.userId}`
  return `${event.botId}/event:${event.id}`
}
