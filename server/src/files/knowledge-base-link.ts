import type { BackendPorts } from '../store/index.js'

/**
 * Whether tags link a file to an existing knowledge base of the bot: `source: 'knowledge-base'` and a `kbId` naming
 * one. Such a file is always indexed, since opening it from the knowledge base needs its passages (decision 1436);
 * a `kbId` naming no knowledge base is an ordinary tag.
 *
 * @example
 * ```ts
 * await linksToKnowledgeBase(services.backend, botId, { source: 'knowledge-base', kbId: 'kb_01' }) // true when kb_01 exists
 * ```
 */
export async function linksToKnowledgeBase(ports: Pick<BackendPorts, 'knowledgeBases'>, botId: string, tags: Readonly<Record<string, string>> | undefined): Promise<boolean> {
  const kbId = tags?.['kbId']
  if (tags?.['source'] !== 'knowledge-base' || kbId === undefined) return false
  return (await ports.knowledgeBases.get(botId, kbId)) !== undefined
}
