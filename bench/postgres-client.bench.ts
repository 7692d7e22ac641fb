// The PostgreSQL client's cost per statement, against the floor of the wire protocol: 10,000 sequential
// `SELECT 1` round trips through the `postgres` library (prepared, the backend's setting, and unprepared), and
// through a minimal client that speaks the simple-query protocol on a bare socket and parses nothing
// (what no library can beat). Ratios against that floor are measured in the same run; a shared machine moves
// the absolute numbers.
//
//   BOTSHELF_BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:postgres-client
import { connect, type Socket } from 'node:net'
import postgres from 'postgres'

const url = new URL(process.env['BOTSHELF_BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres')
const N = Number(process.env['BOTSHELF_BENCH_N'] ?? 10_000)

/** A trust-auth connection that sends simple queries and waits for ReadyForQuery: the protocol's floor. */
async function rawConnection(): Promise<{ query(text: string): Promise<void>; close(): void }> {
  const socket: Socket = connect(Number(url.port || 5432), url.hostname)
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
  let waiting: (() => void) | undefined
  let buffered = Buffer.alloc(0)
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk])
    while (buffered.length >= 5) {
      const length = buffered.readUInt32BE(1)
      if (buffered.length < length + 1) break
      const type = String.fromCharCode(buffered[0]!)
      buffered = buffered.subarray(length + 1)
      if (type === 'E') throw new Error('the server answered with an error')
      if (type === 'Z' && waiting) {
        const done = waiting
        waiting = undefined
        done()
      }
    }
  })
  const ready = () => new Promise<void>((resolve) => (waiting = resolve))
  const params = Buffer.from(`user\0${decodeURIComponent(url.username || 'postgres')}\0database\0${url.pathname.slice(1) || 'postgres'}\0\0`)
  const startup = Buffer.alloc(8)
  startup.writeUInt32BE(8 + params.length, 0)
  startup.writeUInt32BE(196608, 4)
  const first = ready()
  socket.write(Buffer.concat([startup, params]))
  await first
  return {
    async query(text) {
      const body = Buffer.from(`${text}\0`)
      const header = Buffer.alloc(5)
      header.write('Q', 0)
      header.writeUInt32BE(4 + body.length, 1)
      const answered = ready()
      socket.write(Buffer.concat([header, body]))
      await answered
    },
    close: () => socket.destroy(),
  }
}

async function timed(name: string, run: () => Promise<void>): Promise<number> {
  await run() // warm-up round of the same size: connections, prepared statements, JIT
  const start = process.hrtime.bigint()
  await run()
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  console.log(`${name.padEnd(40)} ${ms.toFixed(0).padStart(6)} ms  ${((ms * 1000) / N).toFixed(1)} µs/query`)
  return ms
}

const raw = await rawConnection()
const prepared = postgres(url.toString(), { max: 1, onnotice: () => {} })
const unprepared = postgres(url.toString(), { max: 1, prepare: false, onnotice: () => {} })
try {
  console.log(`${N} sequential SELECT 1 round trips, one connection each`)
  const floor = await timed('raw simple-query protocol (floor)', async () => {
    for (let i = 0; i < N; i++) await raw.query('SELECT 1')
  })
  const withPrepare = await timed('postgres 3.4, prepared (the backend)', async () => {
    for (let i = 0; i < N; i++) await prepared`SELECT 1`
  })
  const withoutPrepare = await timed('postgres 3.4, unprepared', async () => {
    for (let i = 0; i < N; i++) await unprepared`SELECT 1`
  })
  console.log(`ratios to the floor: prepared ${(withPrepare / floor).toFixed(2)}x, unprepared ${(withoutPrepare / floor).toFixed(2)}x`)
} finally {
  raw.close()
  await prepared.end()
  await unprepared.end()
}
