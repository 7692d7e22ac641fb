// Second floor for bench/small-files.bench.ts: the least a service does for the Botpress wire's two requests per file
// with botshelf's durability order, in one plain node:http process. PUT /meta/<name> (a JSON body) inserts the row and
// commits (SQLite WAL, synchronous = FULL), then answers where to upload; PUT /content/<name> writes the body to a
// temporary file, fsyncs it, renames it, fsyncs the folder, then marks the row uploaded and commits. No auth, no
// input checks, no indexes but the key, no outbox: what is left is the wire's shape and the disk's order.
import { open, rename } from 'node:fs/promises'
import { createServer } from 'node:http'
import { join } from 'node:path'
import Database from 'better-sqlite3'

const root = process.argv[2]
if (!root) throw new Error('usage: node bench/baselines/two-request-file-server.mjs <folder>')
const db = new Database(join(root, 'floor.db'))
db.pragma('journal_mode = WAL')
db.pragma('synchronous = FULL')
db.exec('CREATE TABLE IF NOT EXISTS files (key TEXT PRIMARY KEY, size INTEGER NOT NULL, status TEXT NOT NULL, created_at TEXT NOT NULL)')
const insert = db.prepare(`INSERT OR REPLACE INTO files (key, size, status, created_at) VALUES (?, ?, 'upload_pending', ?)`)
const uploaded = db.prepare(`UPDATE files SET status = 'upload_completed', size = ? WHERE key = ?`)
let serial = 0

const server = createServer((req, res) => {
  const [, kind, raw] = /^\/(meta|content)\/(.*)$/.exec(req.url ?? '') ?? []
  const key = (raw ?? '').replace(/[^a-zA-Z0-9._-]/g, '_')
  if (req.method !== 'PUT' || !kind || !key) return void res.writeHead(404).end()
  const parts = []
  req.on('data', (chunk) => parts.push(chunk))
  req.on('end', async () => {
    try {
      const body = Buffer.concat(parts)
      if (kind === 'meta') {
        const { size } = JSON.parse(body.toString('utf8'))
        insert.run(key, size, new Date().toISOString())
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ file: { key, uploadUrl: `/content/${key}` } }))
      }
      const temp = join(root, `.tmp-${serial++}`)
      const handle = await open(temp, 'w')
      await handle.write(body)
      await handle.sync()
      await handle.close()
      await rename(temp, join(root, key))
      const folder = await open(root, 'r')
      await folder.sync()
      await folder.close()
      uploaded.run(body.length, key)
      res.writeHead(200).end()
    } catch (error) {
      res.writeHead(500).end(String(error))
    }
  })
})
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
