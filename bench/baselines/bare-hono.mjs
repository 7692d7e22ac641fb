// Baseline for bench/http-overhead.bench.ts: a bare Hono app on @hono/node-server that answers
// GET /v1/files/:key with a JSON body kept in a Map (no auth, no database, no logging).
// Usage: node bench/baselines/bare-hono.mjs <key> <json>
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const [key, json] = process.argv.slice(2)
if (!key || !json) throw new Error('usage: node bench/baselines/bare-hono.mjs <key> <json>')
const files = new Map([[key, JSON.parse(json)]])
const app = new Hono()
app.get('/v1/files/:key', (c) => {
  const file = files.get(c.req.param('key'))
  return file ? c.json(file) : c.json({ message: 'not found' }, 404)
})
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => process.stdout.write(`listening ${info.port}\n`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
