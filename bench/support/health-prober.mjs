// Probes GET /health on a fresh connection (no keep-alive agent) every --every ms for --seconds, then prints one
// line `PROBES {"times":[...ms],"failures":n}`. Run by bench/health-under-load.bench.ts in a process of its own.
// Usage: node bench/support/health-prober.mjs <url> <seconds> <everyMs>
import http from 'node:http'

const [url, secondsText = '10', everyText = '20'] = process.argv.slice(2)
if (!url) throw new Error('usage: node bench/support/health-prober.mjs <url> <seconds> <everyMs>')
const seconds = Number(secondsText)
const every = Number(everyText)
const times = []
let failures = 0

function probe() {
  return new Promise((resolve) => {
    const started = performance.now()
    const req = http.get(url, { agent: false, timeout: 30_000 }, (res) => {
      res.resume()
      res.on('end', () => {
        if (res.statusCode === 200) times.push(performance.now() - started)
        else failures++
        resolve()
      })
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', () => {
      failures++
      resolve()
    })
  })
}

const inFlight = []
const end = performance.now() + seconds * 1000
while (performance.now() < end) {
  inFlight.push(probe())
  await new Promise((resolve) => setTimeout(resolve, every))
}
await Promise.all(inFlight)
process.stdout.write(`PROBES ${JSON.stringify({ times, failures })}\n`)
