import type { AuthPort, FilesPort, SearchIndexPort } from '../store/index.js'

/** The two storage measures of one bot (the two measures the Botpress plans bill). */
export interface BotUsage {
  botId: string
  /** File Storage: files holding content and their content bytes. */
  fileStorage: { files: number; bytes: number }
  /** Vector DB Storage: passages of indexed files, their text bytes plus their vector bytes. */
  vectorStorage: { passages: number; bytes: number }
}

/** The storage measures of the workspace: per bot, and the total. */
export interface WorkspaceUsage {
  bots: BotUsage[]
  total: Omit<BotUsage, 'botId'>
}

/** The ports {@link measureWorkspaceUsage} reads. */
export interface UsageSources {
  auth: Pick<AuthPort, 'listBots'>
  files: Pick<FilesPort, 'usage'>
  search: Pick<SearchIndexPort, 'usage'>
}

/**
 * Measures File Storage and Vector DB Storage for every bot of the workspace, from the store (no scan of the
 * blob folder: the file rows know their content sizes).
 *
 * @example
 * ```ts
 * const { total } = await measureWorkspaceUsage(backend)
 * console.log(total.fileStorage.bytes, total.vectorStorage.bytes)
 * ```
 */
export async function measureWorkspaceUsage(sources: UsageSources): Promise<WorkspaceUsage> {
  const bots: BotUsage[] = []
  for (const bot of await sources.auth.listBots()) {
    const files = await sources.files.usage([bot.id])
    const search = await sources.search.usage([bot.id])
    bots.push({
      botId: bot.id,
      fileStorage: { files: files.files, bytes: files.contentBytes },
      vectorStorage: { passages: search.passages, bytes: search.passageBytes + search.vectorBytes },
    })
  }
  const total = {
    fileStorage: { files: sum(bots, (b) => b.fileStorage.files), bytes: sum(bots, (b) => b.fileStorage.bytes) },
    vectorStorage: { passages: sum(bots, (b) => b.vectorStorage.passages), bytes: sum(bots, (b) => b.vectorStorage.bytes) },
  }
  return { bots, total }
}

function sum(bots: ReadonlyArray<BotUsage>, measure: (bot: BotUsage) => number): number {
  return bots.reduce((total, bot) => total + measure(bot), 0)
}
