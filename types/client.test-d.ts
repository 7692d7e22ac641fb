import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import {
  AbortError,
  ApiError,
  AsyncCollection,
  Client,
  isApiError,
  ResourceNotFoundError,
  UploadFileError,
  type CallOptions,
  type ClientOptions,
  type File,
  type Row,
  type Table,
  type UploadFileInput,
} from 'botshelf/client'

// Construction: every option is optional.
const client = new Client()
new Client({ token: 't', botId: 'b', apiUrl: 'http://127.0.0.1:3000', integrationId: 'i', headers: { 'x-a': '1' }, timeout: 1000 })
new Client({ retry: { retries: 3, minDelayMs: 10 }, fetch: (request: Request) => fetch(request) })
expectError(new Client({ timeout: '10' }))
expectError(new Client({ retry: { retries: 'many' } }))
expectAssignable<ClientOptions>({ fetch: async (_request: Request) => new Response('{}') })

// Files: inputs.
expectType<Promise<{ file: File }>>(client.getFile({ id: 'a.txt' }))
expectError(client.getFile({}))
expectError(client.getFile({ id: 1 }))
expectError(client.getFile({ id: 'a.txt', bogus: true }))
client.listFiles({ tags: { category: ['Sales', 'Support'], other: { not: 'x' } }, sortField: 'key', sortDirection: 'asc', ids: ['a'] })
expectError(client.listFiles({ sortField: 'name' }))
expectError(client.listFiles({ sortDirection: 'up' }))
client.upsertFile({ key: 'a.txt', size: 3, accessPolicies: ['public_content'], index: true })
expectError(client.upsertFile({ key: 'a.txt' }))
expectError(client.upsertFile({ key: 'a.txt', size: 3, accessPolicies: ['everyone'] }))
client.copyFile({ idOrKey: 'a.txt', destinationKey: 'b.txt', overwrite: true, 'x-destination-bot-id': 'bot2' })
client.updateFileMetadata({ id: 'a.txt', tags: { draft: null }, expiresAt: null })

// Files: outputs.
const { file } = await client.getFile({ id: 'a.txt' })
expectType<string>(file.id)
expectType<number | null>(file.size)
expectType<Record<string, string>>(file.tags)
expectAssignable<'upload_pending' | 'upload_completed' | 'upload_failed' | 'indexing_pending' | 'indexing_completed' | 'indexing_failed'>(file.status)
expectNotAssignable<'anything'>(file.status)
const upserted = await client.upsertFile({ key: 'a.txt', size: 3 })
expectType<string>(upserted.file.uploadUrl)
const listed = await client.listFiles({})
expectType<File[]>(listed.files)
expectType<string | undefined>(listed.meta.nextToken)
expectType<{}>(await client.deleteFile({ id: 'a.txt' }))
expectType<string[]>((await client.listFileTags({})).tags)
expectType<string[]>((await client.listFileTagValues({ tag: 'k' })).values)
expectType<string>((await client.createKnowledgeBase({ name: 'kb' })).knowledgeBase.id)

// Tables.
const found = await client.findTableRows({ table: 'ordersTable', filter: { total: { $gte: 10 } }, orderBy: 'total', orderDirection: 'desc', limit: 5 })
expectType<Row[]>(found.rows)
expectType<boolean>(found.hasMore)
expectType<number>(found.rows[0]!.id)
expectType<unknown>(found.rows[0]!['customer'])
expectError(client.findTableRows({ table: 'ordersTable', orderDirection: 'up' }))
expectError(client.findTableRows({ filter: {} }))
expectType<Table[]>((await client.listTables({})).tables)
client.createTable({ name: 'ordersTable', schema: { total: 0 } })
client.createTableRows({ table: 'ordersTable', rows: [{ total: 1 }] })
expectError(client.updateTableRows({ table: 'ordersTable', rows: [{ total: 1 }] }))
expectType<number>((await client.deleteTableRows({ table: 'ordersTable', ids: [1] })).deletedRows)
const upsertedRows = await client.upsertTableRows({ table: 'ordersTable', rows: [{ email: 'a' }], keyColumn: 'email' })
expectType<Row[]>(upsertedRows.inserted)
expectType<boolean>((await client.getOrCreateTable({ table: 'ordersTable', schema: { total: 0 } })).created)

// Call options.
const controller = new AbortController()
client.getFile({ id: 'a.txt' }, { signal: controller.signal, timeout: 5, headers: { 'x-request-id': 'r' } })
expectAssignable<CallOptions>({ signal: AbortSignal.timeout(10) })
expectError(client.getFile({ id: 'a.txt' }, { signal: 'stop' }))

// Pagination.
expectType<AsyncCollection<File>>(client.list.files({ tags: { k: 'v' } }))
expectType<Promise<File[]>>(client.list.files().collect({ limit: 10 }))
expectType<AsyncCollection<string>>(client.list.fileTags())
expectType<AsyncCollection<string>>(client.list.fileTagValues({ tag: 'k' }))
expectType<AsyncCollection<Table>>(client.list.tables())
expectError(client.list.files({ nextToken: 'x' }))
expectError(client.list.fileTagValues({}))
for await (const item of client.list.knowledgeBases()) expectType<string>(item.name)

// Upload and download.
expectAssignable<UploadFileInput>({ key: 'a.txt', content: 'text' })
expectAssignable<UploadFileInput>({ key: 'a.bin', content: new Uint8Array(3) })
expectAssignable<UploadFileInput>({ key: 'a.bin', content: new Blob(['x']) })
expectAssignable<UploadFileInput>({ key: 'a.bin', content: new ReadableStream<Uint8Array>(), size: 10 })
expectAssignable<UploadFileInput>({ key: 'a.bin', url: 'https://example.com/a.bin', tags: { k: 'v' } })
expectNotAssignable<UploadFileInput>({ key: 'a.bin', content: 42 })
const uploaded = await client.uploadFile({ key: 'a.txt', content: 'hi' })
expectType<string>(uploaded.file.uploadUrl)
const downloaded = await client.downloadFile({ id: 'a.txt' })
expectType<File>(downloaded.file)
expectType<Response>(downloaded.response)

// Errors.
declare const thrown: unknown
if (isApiError(thrown)) {
  expectType<string>(thrown.id)
  expectAssignable<number>(thrown.code)
  expectAssignable<string>(thrown.type)
  expectType<Record<string, unknown> | undefined>(thrown.metadata)
}
const notFound = new ResourceNotFoundError('missing')
expectType<404>(notFound.code)
expectType<'ResourceNotFound'>(notFound.type)
expectAssignable<ApiError>(notFound)
expectType<'ERR_ABORTED'>(new AbortError().code)
expectType<'ERR_UPLOAD'>(new UploadFileError('x').code)
