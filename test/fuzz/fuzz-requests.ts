import { filesOperations } from '../../src/api/files/operations.js'
import { tablesOperations } from '../../src/api/tables/operations.js'
import type { Operation } from '../../src/api/operation.js'
import type { FuzzRandom } from './fuzz-random.js'
import { deepJsonText, hostileString, hostileValue, mutateJsonText, prototypeNames, wideObject } from './hostile-values.js'

/** What the fuzzer knows of the dataset it attacks (made by the setup, see `prepareFuzzTarget`). */
export interface FuzzTarget {
  botId: string
  otherBotId: string
  /** Tokens by caller name: `bot`, `viewer`, an integration, a token of another bot. */
  tokens: Record<string, string>
  fileId: string
  fileKey: string
  tableName: string
  knowledgeBaseId: string
  rowIds: number[]
  /** A signed upload URL path (with query) of a pending file, and a signed download URL path. */
  uploadPath: string
  downloadPath: string
}

/** One request as the fuzzer sends it: the path is sent as is (already percent-encoded where it must be). */
export interface FuzzRequest {
  /** Which generator made it, for the report. */
  label: string
  method: string
  path: string
  headers: Record<string, string>
  body?: Uint8Array
}

const operations: Operation[] = [...Object.values(filesOperations), ...Object.values(tablesOperations)] as Operation[]

/** A plausible, valid input of each operation on the fuzz target, before mutation. */
function sampleInput(name: string, target: FuzzTarget, random: FuzzRandom): { params: Record<string, string>; query: Record<string, unknown>; body?: Record<string, unknown> } {
  const table = { table: target.tableName }
  const file = { id: random.chance(0.5) ? target.fileId : target.fileKey }
  switch (name) {
    case 'upsertFile':
      return { params: {}, query: {}, body: { key: `fuzz/${random.int(0, 50)}.txt`, size: random.int(0, 2000), tags: { kind: 'fuzz' }, metadata: { n: 1 }, contentType: 'text/plain' } }
    case 'listFiles':
      return { params: {}, query: { tags: { kind: ['fuzz'] }, sortField: 'key', sortDirection: 'asc', pageSize: 5 } }
    case 'getFile':
    case 'deleteFile':
    case 'listFilePassages':
      return { params: file, query: {} }
    case 'updateFileMetadata':
      return { params: file, query: {}, body: { metadata: { a: 1 }, tags: { kind: 'fuzz' } } }
    case 'copyFile':
      return { params: { idOrKey: target.fileKey, destinationKey: `copies/${random.int(0, 20)}.txt` }, query: {}, body: { overwrite: true } }
    case 'searchFiles':
      return { params: {}, query: { query: 'where is the refund policy', limit: 5, tags: { kind: 'fuzz' } } }
    case 'setFilePassages':
      return { params: file, query: {}, body: { passages: [{ content: 'hello', type: 'paragraph', pageNumber: 1 }] } }
    case 'listFileTags':
      return { params: {}, query: { pageSize: 10 } }
    case 'listFileTagValues':
      return { params: { tag: 'kind' }, query: {} }
    case 'createKnowledgeBase':
      return { params: {}, query: {}, body: { name: `kb ${random.int(0, 9)}`, tags: { team: 'fuzz' } } }
    case 'listKnowledgeBases':
      return { params: {}, query: { tags: { team: 'fuzz' } } }
    case 'updateKnowledgeBase':
      return { params: { id: target.knowledgeBaseId }, query: {}, body: { name: 'renamed', tags: { team: 'fuzz' } } }
    case 'deleteKnowledgeBase':
      return { params: { id: random.chance(0.2) ? target.knowledgeBaseId : 'kb_missing' }, query: {} }
    case 'listTables':
      return { params: {}, query: { tags: { team: 'fuzz' } } }
    case 'createTable':
      return { params: {}, query: {}, body: { name: `fuzz${random.int(0, 30)}Table`, schema: { name: { type: 'string' }, n: { type: 'number' } } } }
    case 'getOrCreateTable':
      return { params: { table: `fuzz${random.int(0, 30)}Table` }, query: {}, body: { schema: { name: { type: 'string' } } } }
    case 'updateTable':
      return { params: table, query: {}, body: { schema: { extra: { type: 'string' } }, tags: { team: 'fuzz' } } }
    case 'getTable':
    case 'getTableJobs':
      return { params: table, query: {} }
    case 'deleteTable':
      return { params: { table: `fuzz${random.int(0, 30)}Table` }, query: {} }
    case 'duplicateTable':
      return { params: { sourceTableId: target.tableName }, query: {}, body: { tableName: `dup${random.int(0, 20)}Table`, schemaOnly: true } }
    case 'exportTable':
      return { params: table, query: { format: 'csv' } }
    case 'importTable':
      return { params: table, query: {}, body: { fileId: target.fileId } }
    case 'renameTableColumn':
      return { params: table, query: {}, body: { name: 'extra', newName: 'extra2' } }
    case 'getTableRow':
      return { params: table, query: { id: random.pick(target.rowIds) } }
    case 'findTableRows':
      return { params: table, query: {}, body: { filter: { n: { $gte: 2 }, name: { $regex: '^a' } }, orderBy: 'n', limit: 10, select: ['name', 'n'] } }
    case 'createTableRows':
      return { params: table, query: {}, body: { rows: [{ name: 'fuzz', n: random.int(0, 100), when: '2026-01-01T00:00:00Z', obj: { a: [1] } }] } }
    case 'updateTableRows':
      return { params: table, query: {}, body: { rows: [{ id: random.pick(target.rowIds), n: 3 }] } }
    case 'upsertTableRows':
      return { params: table, query: {}, body: { rows: [{ name: 'k', n: 1 }], keyColumn: 'name' } }
    case 'deleteTableRows':
      return { params: table, query: {}, body: { filter: { n: { $gt: 1e9 } } } }
    default:
      throw new Error(`fuzz: no sample input for operation ${name}`)
  }
}

const encoder = new TextEncoder()

/** Percent-encodes the UTF-8 bytes of a string (lone surrogates become U+FFFD, as a client's encoder does). */
function percentEncode(text: string): string {
  let encoded = ''
  for (const byte of encoder.encode(text)) {
    const char = String.fromCharCode(byte)
    encoded += /[A-Za-z0-9_.~-]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return encoded
}

/** Query string in the official client's style (dot notation, repeated keys), from a plain object. */
function encodeQuery(query: Record<string, unknown>): string {
  const parts: string[] = []
  const add = (prefix: string, value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) add(prefix, item)
    else if (value !== null && typeof value === 'object') for (const [key, inner] of Object.entries(value)) add(`${prefix}.${key}`, inner)
    else parts.push(`${percentEncode(prefix)}=${percentEncode(String(value))}`)
  }
  for (const [key, value] of Object.entries(query)) add(key, value)
  return parts.join('&')
}

/** A hostile raw query string: invalid percent-encodings, deep brackets, thousands of keys, prototype names. */
function hostileQuery(random: FuzzRandom, valid: string): string {
  switch (random.int(0, 9)) {
    case 0:
      return `${valid}&pageSize=${random.pick(['1e400', '-1', '0', '99999999999999999999', 'NaN', 'abc', ''])}`
    case 1:
      return `${valid}&${random.pick(['%', '%zz', '%ff%fe', '%c3', '%ed%a0%80', '%00'])}=${random.pick(['%', '%ff', 'x'])}`
    case 2:
      return `tags${'[a]'.repeat(random.int(10, 300))}=x`
    case 3:
      return Array.from({ length: random.int(100, 3000) }, (_, i) => `tags.k${i}=v`).join('&')
    case 4:
      return `tags.${random.pick(prototypeNames)}=x&tags[${random.pick(prototypeNames)}]=y&${random.pick(prototypeNames)}=1`
    case 5:
      return Array.from({ length: random.int(100, 2500) }, () => 'tags.k=v').join('&')
    case 6:
      return `${valid}&${percentEncode(hostileString(random).slice(0, 200))}=${percentEncode(hostileString(random).slice(0, 2000))}`
    case 7:
      return `sortField=${random.pick(['key', 'createdAt', 'size', '__proto__', 'x'])}&sortDirection=${random.pick(['asc', 'desc', 'sideways'])}&nextToken=${percentEncode(hostileString(random).slice(0, 300))}`
    case 8:
      return `ids=${Array.from({ length: random.int(1, 600) }, (_, i) => `file_${i}`).join('&ids=')}`
    default:
      return `${valid}&${valid}`
  }
}

/** Replaces, removes or adds one field of a body with something hostile. */
function mutateBodyObject(random: FuzzRandom, body: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...body }
  const keys = Object.keys(copy)
  const choice = random.int(0, 7)
  if (choice === 0 && keys.length > 0) delete copy[random.pick(keys)]
  else if (choice === 1) copy[random.pick([...prototypeNames, 'unknownField', hostileString(random).slice(0, 30)])] = hostileValue(random)
  else if (choice === 2 && keys.length > 0) copy[random.pick(keys)] = hostileValue(random)
  else if (choice === 3 && keys.length > 0) copy[random.pick(keys)] = wideObject(random, random.int(100, 20_000))
  else if (choice === 4 && keys.length > 0) copy[random.pick(keys)] = Array.from({ length: random.int(100, 5000) }, () => hostileValue(random, 3))
  else if (choice === 5) {
    // Deep nesting inside the field a store would serialize: metadata, a row's object column, a schema, a filter.
    const field = random.pick(['metadata', 'schema', 'filter', 'rows', 'tags', 'group'])
    copy[field] = JSON.parse(deepJsonText(random.int(10, 60), random.chance(0.5), random.pick(['a', '$and', '$or', 'type'])))
  } else if (choice === 6) {
    const field = random.pick(['filter', 'group', 'orderBy', 'select', 'search', 'keyColumn'])
    copy[field] = random.pick<unknown>([
      { [random.pick(prototypeNames)]: { $eq: 1 } },
      { name: { $regex: '(.*a){1000}' } },
      { name: { $regex: 'x'.repeat(5000) } },
      { $or: Array.from({ length: random.int(100, 3000) }, (_, i) => ({ n: i })) },
      { name: { $in: Array.from({ length: random.int(100, 5000) }, (_, i) => `v${i}`) } },
      { n: { $mod: [0, 0] } },
      { [random.pick(prototypeNames)]: { key: random.pick(prototypeNames), count: 1 } },
      random.pick(prototypeNames),
      Array.from({ length: random.int(50, 500) }, () => random.pick(prototypeNames)),
    ])
  } else if (keys.length > 0) {
    const key = random.pick(keys)
    copy[key] = random.pick<unknown>([Number.MAX_VALUE, -0, 2 ** 64, 1e21, -1, 0.5, '12', true, [], {}])
  }
  return copy
}


/** Headers of a request: usually a valid bot token, sometimes another caller, a wrong one or none. */
function authHeaders(random: FuzzRandom, target: FuzzTarget): Record<string, string> {
  const headers: Record<string, string> = {}
  const callers = Object.keys(target.tokens)
  const choice = random.int(0, 19)
  if (choice < 12) headers['authorization'] = `Bearer ${target.tokens['bot']}`
  else if (choice < 16) headers['authorization'] = `Bearer ${target.tokens[random.pick(callers)]}`
  else if (choice === 16) headers['authorization'] = random.pick(['Bearer', 'Bearer ', 'Basic abc', `Bearer ${'x'.repeat(3000)}`, 'bearer bs_nope', `Bearer ${target.tokens['bot']}x`])
  if (choice !== 17) headers['x-bot-id'] = random.chance(0.95) ? target.botId : random.pick([target.otherBotId, 'nope', '', '../x', 'é', '00000000-0000-0000-0000-000000000000'])
  return headers
}

/** Header values that must not be taken at face value (for JSON bodies). */
function contentTypeHeader(random: FuzzRandom): string | undefined {
  return random.chance(0.85) ? 'application/json' : random.pick([undefined, 'text/plain', 'application/json; charset=latin1', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', '*/*', 'application/json, text/html'])
}

/** A request to one API operation: a sample input, then zero or more mutations. */
function operationRequest(random: FuzzRandom, target: FuzzTarget): FuzzRequest {
  const operation = random.pick(operations)
  const sample = sampleInput(operation.name, target, random)
  let path = operation.path
  for (const [name, value] of Object.entries(sample.params)) {
    const hostile = random.chance(0.15)
    const raw = hostile ? random.pick([hostileString(random).slice(0, 300), '%ff', '..', random.pick(prototypeNames), 'x'.repeat(2000)]) : value
    path = path.replace(`{${name}}`, hostile && random.chance(0.3) ? raw.replace(/[^%\w.-]/g, '') || '%ff' : percentEncode(raw))
  }
  const validQuery = encodeQuery(sample.query)
  const query = random.chance(0.4) ? hostileQuery(random, validQuery) : validQuery
  const headers = authHeaders(random, target)
  let body: Uint8Array | undefined
  if (sample.body !== undefined) {
    const mutated = random.chance(0.7) ? mutateBodyObject(random, sample.body) : sample.body
    const text = JSON.stringify(mutated)
    body = random.chance(0.3) ? mutateJsonText(random, text) : encoder.encode(text)
    const type = contentTypeHeader(random)
    if (type !== undefined) headers['content-type'] = type
  } else if (random.chance(0.05)) {
    body = encoder.encode(JSON.stringify(hostileValue(random)))
    headers['content-type'] = 'application/json'
  }
  const method = random.chance(0.03) ? random.pick(['PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'DELETE']) : operation.method
  return { label: `${operation.name}${method !== operation.method ? ` as ${method}` : ''}`, method, path: query ? `${path}?${query}` : path, headers, ...(body !== undefined ? { body } : {}) }
}

/** A request to a signed content URL: tampered signatures and expiries, wrong lengths, ranges. */
function contentRequest(random: FuzzRandom, target: FuzzTarget): FuzzRequest {
  const upload = random.chance(0.5)
  const base = upload ? target.uploadPath : target.downloadPath
  const tamper = random.int(0, 5)
  const path =
    tamper === 0 ? base
    : tamper === 1 ? base.replace(/([?&][a-z]+=)[^&]*/, `$1${percentEncode(hostileString(random).slice(0, 100))}`)
    : tamper === 2 ? base.replace(/\d{6,}/, random.pick(['0', '99999999999999999999', '-1', '1e400']))
    : tamper === 3 ? `${base}&${random.pick(['x=%ff', 'signature=', 'expires='])}`
    : tamper === 4 ? base.split('?')[0] ?? base
    : base.replace(/[A-Za-z0-9_-]{10}(?=&|$)/, 'AAAAAAAAAA')
  const headers: Record<string, string> = {}
  if (!upload && random.chance(0.4)) headers['range'] = random.pick(['bytes=0-0', 'bytes=5-2', 'bytes=-0', 'bytes=0-99999999999999999999', 'bytes=a-b', 'bytes=0-1,2-3', 'items=0-1', `bytes=${'0-1,'.repeat(500)}0-1`])
  if (upload) headers['content-type'] = random.pick(['text/plain', 'application/octet-stream', '', 'x/\u00e9'.replace(/[^\x20-\x7e]/g, '')])
  const body = upload ? encoder.encode('z'.repeat(random.pick([0, 5, 10, 100, 5000]))) : undefined
  return { label: upload ? 'content upload' : 'content download', method: upload ? 'PUT' : random.pick(['GET', 'GET', 'HEAD']), path, headers, ...(body !== undefined ? { body } : {}) }
}

/** A request outside /v1 or with a broken shape. */
function strayRequest(random: FuzzRandom, target: FuzzTarget): FuzzRequest {
  const path = random.pick(['/', '/health', '/nope', '/v1', '/v1/', '/v1/openapi.json', '/v1/files/', '//v1//files', '/v1/files/%', '/v1/tables/%ff', `/v1/${'a/'.repeat(500)}`, '/v1/files?x', '/.env', '/v1/files/../../etc'])
  const method = random.pick(['GET', 'POST', 'DELETE', 'PUT', 'OPTIONS', 'HEAD', 'PATCH'])
  const headers = authHeaders(random, target)
  if (random.chance(0.3)) headers['origin'] = random.pick(['https://evil.example', 'null', 'http://127.0.0.1'])
  if (random.chance(0.3)) headers['access-control-request-method'] = 'DELETE'
  return { label: `stray ${method} ${path.slice(0, 30)}`, method, path, headers, ...(method !== 'GET' && method !== 'HEAD' && random.chance(0.5) ? { body: encoder.encode('{"a":') } : {}) }
}

/**
 * The next request of a seeded fuzz run over every operation of the Files and Tables APIs, the content URLs and
 * routes outside `/v1`.
 */
export function nextFuzzRequest(random: FuzzRandom, target: FuzzTarget): FuzzRequest {
  const kind = random.next()
  if (kind < 0.82) return operationRequest(random, target)
  if (kind < 0.94) return contentRequest(random, target)
  return strayRequest(random, target)
}
