// Floor for bench/small-files.bench.ts: the least a durable small-file service does, in one plain node:http
// process. PUT /<name> reads the body, writes it to a new file, fsyncs it, then inserts a row in SQLite (WAL,
// synchronous = FULL, as botshelf runs it) with one prepared statement; answers a small JSON.
import { open } from 'node:fs/promises'
import { createServer } from 'node:http'
import { join } from 'node:path'
import Database from 'better-sqlite3'

const root = process.argv[2]
if (!root) throw new Error('usage: node bench/baselines/durable-file-server.mjs <folder>')
const db = new Database(join(root, 'floor.db'))
db.pragma('journal_mode = WAL')
db.pragma('synchronous = FULL')
db.exec('CREATE TABLE IF NOT EXISTS files (key TEXT PRIMARY KEY, size INTEGER NOT NULL, created_at TEXT NOT NULL)')
const insert = db.prepare('INSERT OR REPLACE INTO files (key, size, created_at) VALUES (?, ?, ?)')

const server = createServer((req, res) => {
  const key = (req.url ?? '/').slice(1).replace(/[^a-zA-Z0-9._-]/g, '_')
  if (req.method !== 'PUT') return void res.writeHead(405).end()
  const parts = []
  req.on('data', (chunk) => parts.push(chunk))
  req.on('end', async () => {
    try {
      const body = Buffer.concat(parts)
      const handle = await open(join(root, key), 'w')
      await handle.write(body)
      await handle.sync()
      await handle.close()
      insert.run(key, body.length, new Date().toISOString())
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ key, size: body.length }))
    } catch (error) {
      res.writeHead(500).end(String(error))
    }
  })
})
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
