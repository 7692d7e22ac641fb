import type { TestService } from '../helpers/service.js'
import type { FuzzTarget } from './fuzz-requests.js'

/** Creates what the fuzzer aims at (a file with content, a pending upload, a table with rows, a knowledge base). */
export async function prepareFuzzTarget(service: TestService): Promise<FuzzTarget> {
  const ok = <T>(response: { status: number; text: string; body: T }, what: string): T => {
    if (response.status !== 200) throw new Error(`fuzz setup: ${what} answered ${response.status}: ${response.text}`)
    return response.body
  }
  const created = ok(await service.request<{ file: { id: string; key: string; uploadUrl: string } }>('PUT', '/v1/files', { body: { key: 'fuzz/target.csv', size: 18, contentType: 'text/csv', tags: { kind: 'fuzz' } } }), 'upsertFile')
  const put = await fetch(created.file.uploadUrl, { method: 'PUT', body: 'name,n\nada,1\nbob,2', headers: { 'content-type': 'text/csv' } })
  if (put.status !== 200) throw new Error(`fuzz setup: content upload answered ${put.status}`)
  const file = ok(await service.request<{ file: { url: string } }>('GET', `/v1/files/${created.file.id}`), 'getFile')
  const pending = ok(await service.request<{ file: { uploadUrl: string } }>('PUT', '/v1/files', { body: { key: 'fuzz/pending.txt', size: 10 } }), 'upsertFile pending')
  ok(await service.request('POST', '/v1/tables', { body: { name: 'fuzzTargetTable', schema: { name: { type: 'string' }, n: { type: 'number' }, when: { type: 'string', format: 'date-time' }, obj: { type: 'object', additionalProperties: true }, flag: { type: 'boolean' } } } }), 'createTable')
  const rows = ok(await service.request<{ rows: Array<{ id: number }> }>('POST', '/v1/tables/fuzzTargetTable/rows', { body: { rows: [{ name: 'ada', n: 1 }, { name: 'bob', n: 2 }, { name: 'cy', n: 3, obj: { a: 1 } }] } }), 'createTableRows')
  const kb = ok(await service.request<{ knowledgeBase: { id: string } }>('POST', '/v1/files/knowledge-bases', { body: { name: 'fuzz kb', tags: { team: 'fuzz' } } }), 'createKnowledgeBase')
  const relative = (absolute: string): string => {
    const parsed = new URL(absolute)
    return `${parsed.pathname}${parsed.search}`
  }
  return {
    botId: service.botId,
    otherBotId: service.otherBotId,
    tokens: { bot: service.tokens.bot, viewer: service.tokens.viewer, alpha: service.tokens.alpha, otherBot: service.tokens.otherBot, administrator: service.tokens.administrator },
    fileId: created.file.id,
    fileKey: created.file.key,
    tableName: 'fuzzTargetTable',
    knowledgeBaseId: kb.knowledgeBase.id,
    rowIds: rows.rows.map((row) => row.id),
    uploadPath: relative(pending.file.uploadUrl),
    downloadPath: relative(file.file.url),
  }
}
