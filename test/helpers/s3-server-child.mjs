// The S3-compatible test server, run as a child process by test/helpers/s3-server.ts with
// `node --openssl-legacy-provider` (s3rver seals its list continuation tokens with DES, which OpenSSL 3 refuses
// otherwise). Usage: node --openssl-legacy-provider s3-server-child.mjs <directory> [bucket...]
//
// s3rver answers ListMultipartUploads and AbortMultipartUpload with NotImplemented / 405. Both are small and
// botshelf's sweep depends on them, so this process answers those two itself, from s3rver's own on-disk layout
// (`<directory>/<bucket>/._S3rver_uploads/<uploadId>/{key,metadata,<part>...}`), and hands every other request
// to s3rver unchanged. Prints one JSON line `{"port":N}` once listening; exits when its parent goes away.
import { createRequire } from 'node:module'
import { createServer } from 'node:http'
import { readdir, readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'

const require = createRequire(import.meta.url)
const S3rver = require('s3rver')

const [directory, ...buckets] = process.argv.slice(2)
if (!directory) {
  console.error('usage: s3-server-child.mjs <directory> [bucket...]')
  process.exit(2)
}

const s3rver = new S3rver({ directory, silent: true })
const uploadsDirOf = (bucket) => join(directory, bucket, '._S3rver_uploads')

const xmlEscape = (text) => String(text).replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`)

function sendXml(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/xml' })
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`)
}

function sendError(res, status, code, message) {
  sendXml(res, status, `<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message></Error>`)
}

async function bucketExists(bucket) {
  return (await stat(join(directory, bucket)).catch(() => undefined))?.isDirectory() === true
}

async function pendingUploads(bucket) {
  const dir = uploadsDirOf(bucket)
  const ids = await readdir(dir).catch(() => [])
  const uploads = []
  for (const uploadId of ids) {
    const keyFile = join(dir, uploadId, 'key')
    const key = await readFile(keyFile, 'utf8').catch(() => undefined)
    if (key === undefined) continue
    const info = await stat(keyFile)
    uploads.push({ key, uploadId, initiated: info.mtime })
  }
  return uploads.sort((a, b) => (a.key === b.key ? (a.uploadId < b.uploadId ? -1 : 1) : a.key < b.key ? -1 : 1))
}

async function listMultipartUploads(res, bucket, query) {
  const prefix = query.get('prefix') ?? ''
  const maxUploads = Math.min(Number(query.get('max-uploads') ?? 1000) || 1000, 1000)
  const keyMarker = query.get('key-marker') ?? ''
  const uploadIdMarker = query.get('upload-id-marker') ?? ''
  const after = (u) => !keyMarker || u.key > keyMarker || (u.key === keyMarker && uploadIdMarker !== '' && u.uploadId > uploadIdMarker)
  const matching = (await pendingUploads(bucket)).filter((u) => u.key.startsWith(prefix) && after(u))
  const page = matching.slice(0, maxUploads)
  const truncated = matching.length > page.length
  const last = page[page.length - 1]
  const entries = page
    .map((u) => `<Upload><Key>${xmlEscape(u.key)}</Key><UploadId>${u.uploadId}</UploadId><Initiated>${u.initiated.toISOString()}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`)
    .join('')
  const next = truncated && last ? `<NextKeyMarker>${xmlEscape(last.key)}</NextKeyMarker><NextUploadIdMarker>${last.uploadId}</NextUploadIdMarker>` : ''
  sendXml(
    res,
    200,
    `<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${xmlEscape(bucket)}</Bucket><KeyMarker>${xmlEscape(keyMarker)}</KeyMarker><UploadIdMarker>${xmlEscape(uploadIdMarker)}</UploadIdMarker><Prefix>${xmlEscape(prefix)}</Prefix><MaxUploads>${maxUploads}</MaxUploads><IsTruncated>${truncated}</IsTruncated>${next}${entries}</ListMultipartUploadsResult>`,
  )
}

async function abortMultipartUpload(res, bucket, uploadId) {
  if (!/^[0-9a-f]+$/.test(uploadId)) return sendError(res, 404, 'NoSuchUpload', 'The specified upload does not exist.')
  const dir = join(uploadsDirOf(bucket), uploadId)
  if (!(await stat(dir).catch(() => undefined))) return sendError(res, 404, 'NoSuchUpload', 'The specified upload does not exist.')
  await rm(dir, { recursive: true, force: true })
  res.writeHead(204)
  res.end()
}

/** Answers the two operations s3rver lacks; `false` lets s3rver handle the request. */
async function answerMissingOperation(req, res) {
  const url = new URL(req.url ?? '/', 'http://localhost')
  const segments = url.pathname.split('/').filter(Boolean)
  const bucket = segments[0] ? decodeURIComponent(segments[0]) : undefined
  if (!bucket) return false
  const listUploads = req.method === 'GET' && segments.length === 1 && url.searchParams.has('uploads')
  const abortUpload = req.method === 'DELETE' && segments.length > 1 && url.searchParams.has('uploadId')
  if (!listUploads && !abortUpload) return false
  if (!(await bucketExists(bucket))) {
    sendError(res, 404, 'NoSuchBucket', 'The specified bucket does not exist')
    return true
  }
  if (listUploads) await listMultipartUploads(res, bucket, url.searchParams)
  else await abortMultipartUpload(res, bucket, url.searchParams.get('uploadId') ?? '')
  return true
}

for (const name of buckets) await s3rver.store.putBucket(name)
const handle = s3rver.callback()
const server = createServer((req, res) => {
  answerMissingOperation(req, res)
    .then((answered) => {
      if (!answered) handle(req, res)
    })
    .catch((error) => {
      if (!res.headersSent) sendError(res, 500, 'InternalError', String(error))
      else res.destroy()
    })
})
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`)
})

const stop = () => {
  server.close(() => process.exit(0))
  server.closeAllConnections()
  setTimeout(() => process.exit(0), 2000).unref()
}
process.on('SIGTERM', stop)
process.on('disconnect', stop)
