import type { UpsertFileInput } from './types.js'

/**
 * A file of a bot as the ports' tests write it: owned by the bot, plain text, no tags, metadata or policies, to be
 * indexed, never expiring; `extra` overrides any field (the owner follows `extra.botId`).
 *
 * @example
 * ```ts
 * await backend.files.upsert(botFileInput('bot_1', 'notes.md', { index: false }))
 * ```
 */
export function botFileInput(botId: string, key: string, extra: Partial<UpsertFileInput> = {}): UpsertFileInput {
  return {
    botId,
    key,
    ownerScope: '',
    owner: { type: 'bot', id: extra.botId ?? botId },
    size: 1,
    contentType: 'text/plain',
    tags: {},
    metadata: {},
    accessPolicies: [],
    index: true,
    expiresAt: null,
    ...extra,
  }
}
