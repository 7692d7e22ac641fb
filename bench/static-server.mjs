// Baseline for bench/files.bench.ts: a plain node:http static file server on the same machine.
// PUT /<name> streams the body to a file (then fsync, like botshelf's durable write); GET /<name> streams it back.
import { createReadStream, createWriteStream, statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { createServer } from 'node:http'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'

const root = process.argv[2]
if (!root) throw new Error('usage: node bench/static-server.mjs <folder>')

const server = createServer(async (req, res) => {
  const name = (req.url ?? '/').slice(1).replace(/[^a-zA-Z0-9._-]/g, '_')
  const file = join(root, name)
  try {
    if (req.method === 'PUT') {
      await pipeline(req, createWriteStream(file))
      const handle = await open(file, 'r+')
      await handle.sync()
      await handle.close()
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    } else if (req.method === 'GET') {
      const { size } = statSync(file)
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size })
      await pipeline(createReadStream(file), res)
    } else {
      res.writeHead(405).end()
    }
  } catch (error) {
    if (!res.headersSent) res.writeHead(500).end(String(error))
    else res.destroy()
  }
})
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
