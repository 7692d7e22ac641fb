/**
 * S3 upload benchmark: streams N bytes of generated content (default 1 GB) into the S3 blob store on the
 * S3-compatible test server (s3rver, a child process, on loopback), and, as the baseline in the same run, the same
 * stream into the local-folder store. Prints per store: MB/s, the RSS growth of this process while writing (peak
 * minus the level before, sampled every 20 ms), and for S3 the part buffers the store held at most and the parts
 * sent. The throughput ratio S3 / local is the figure to compare across machines; the RSS growth is the
 * constant-memory check (the bar: under 64 MB for 1 GB).
 *
 *   npm run bench:s3                                 # 1 GB, 8 MiB parts, 4 in flight
 *   npx tsx bench/s3-upload.bench.ts --size 256MB --part-size 16MB --queue-size 2 --rounds 2
 *
 * Needs about three times the size free in the temp folder (the local copy, s3rver's parts and its assembled object).
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createLocalFolderBlobStore, type BlobStore } from '../server/src/blobs/index.js'
import { createS3BlobStore, type S3BlobStore } from '../server/src/blobs/s3/index.js'
import { startS3TestServer } from '../test/helpers/s3-server.js'

const MB = 1024 * 1024

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '1GB' },
    'part-size': { type: 'string', default: '8MB' },
    'queue-size': { type: 'string', default: '4' },
    rounds: { type: 'string', default: '1' },
  },
})

function parseSize(flag: string, text: string): number {
  const match = /^(\d+)(MB|GB)$/i.exec(text.trim())
  if (!match) throw new Error(`${flag}: expected a size like 64MB or 1GB, received ${JSON.stringify(text)}`)
  return Number(match[1]) * (match[2]!.toUpperCase() === 'GB' ? 1024 : 1) * MB
}

const size = parseSize('--size', values.size)
const partSize = parseSize('--part-size', values['part-size'])
const queueSize = Number(values['queue-size'])
const rounds = Number(values.rounds)

/** `total` bytes as 1 MiB chunks cut from one random block: generating costs nothing next to hashing and sending. */
async function* generated(total: number): AsyncIterable<Uint8Array> {
  const block = randomBytes(MB)
  for (let sent = 0; sent < total; sent += MB) yield block.subarray(0, Math.min(MB, total - sent))
}

interface Measured {
  seconds: number
  mbPerSecond: number
  rssGrowthMb: number
}

async function measure(store: BlobStore): Promise<Measured> {
  globalThis.gc?.()
  const before = process.memoryUsage().rss
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 20)
  const started = process.hrtime.bigint()
  const written = await store.write(generated(size), { expectedBytes: size, maxBytes: size })
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage().rss)
  if ((await store.stat(written.blobId))?.size !== size) throw new Error('the written blob does not have the size written')
  await store.delete(written.blobId)
  return { seconds, mbPerSecond: size / MB / seconds, rssGrowthMb: (peak - before) / MB }
}

const s3 = await startS3TestServer({ buckets: ['bench'] })
const localRoot = await mkdtemp(join(os.tmpdir(), 'botshelf-bench-local-'))
const local = createLocalFolderBlobStore({ root: localRoot })
const remote: S3BlobStore = createS3BlobStore({
  bucket: 'bench',
  region: s3.region,
  endpoint: s3.endpoint,
  forcePathStyle: true,
  credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  partSize,
  queueSize,
})
try {
  // Warm up both (loads the SDK, opens the connection pool) so the RSS baseline includes them.
  for (const store of [local, remote]) await store.delete((await store.write(generated(MB))).blobId)
  console.log(`size ${size / MB} MB, part ${partSize / MB} MB, queue ${queueSize}, ${os.cpus().length} cores, Node ${process.version}, load ${os.loadavg()[0]?.toFixed(1)}`)
  for (let round = 1; round <= rounds; round++) {
    // Alternate the order each round, so neither store always runs on a warmer (or busier) machine.
    const order = round % 2 === 1 ? (['local', 's3'] as const) : (['s3', 'local'] as const)
    const results: Record<string, Measured> = {}
    for (const name of order) results[name] = await measure(name === 'local' ? local : remote)
    const stats = remote.uploadStats()
    const l = results['local']!
    const r = results['s3']!
    console.log(
      `round ${round}: local ${l.mbPerSecond.toFixed(1)} MB/s (RSS +${l.rssGrowthMb.toFixed(1)} MB) | ` +
        `s3 ${r.mbPerSecond.toFixed(1)} MB/s (RSS +${r.rssGrowthMb.toFixed(1)} MB, part buffers at most ${(stats.peakBufferedBytes / MB).toFixed(0)} MB, ${stats.partsUploaded} parts so far) | ` +
        `throughput s3/local ${(r.mbPerSecond / l.mbPerSecond).toFixed(2)}`,
    )
  }
} finally {
  remote.close()
  await s3.stop()
  await rm(localRoot, { recursive: true, force: true })
}
