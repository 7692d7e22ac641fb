import { chmod, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportDataset } from '../../server/src/dataset/index.js'
import { openFolderWarning } from '../../server/src/platform/index.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { uploadText } from '../files/helpers.js'

/** Every entry under a folder with its permission bits, as `path: mode` in octal. */
async function modesUnder(root: string): Promise<string[]> {
  const found: string[] = []
  const walk = async (dir: string, label: string): Promise<void> => {
    found.push(`${label}/: ${((await stat(dir)).mode & 0o777).toString(8)}`)
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) await walk(path, `${label}/${entry.name}`)
      else found.push(`${label}/${entry.name}: ${((await stat(path)).mode & 0o777).toString(8)}`)
    }
  }
  await walk(root, '.')
  return found
}

// Finding 1 of issue 28 (decision 1461): with the common umask 022 the folder was 0755 and the files 0644.
describe('the data folder and what is written from it are private to the service user, whatever the umask', () => {
  let parent: string
  let service: TestService
  let umask: number
  beforeAll(async () => {
    umask = process.umask(0o022)
    parent = await mkdtemp(join(tmpdir(), 'botshelf-modes-'))
    // A folder the service makes itself (mkdtemp would already be 0700).
    service = await startTestService({ dataDir: join(parent, 'data') })
    await uploadText(service, 'secret.txt', 'another bot must never read this')
  })
  afterAll(async () => {
    await service.close()
    process.umask(umask)
    await rm(parent, { recursive: true, force: true })
  })

  it('makes the folder and every folder in it 0700, and the database, its log, the lock and the blobs 0600', async () => {
    const modes = await modesUnder(service.dataDir)
    expect(modes.filter((line) => line.endsWith('/: 700')).length).toBeGreaterThanOrEqual(4)
    expect(modes).toEqual(expect.arrayContaining(['./botshelf.db: 600', './botshelf.db-wal: 600', './botshelf.lock: 600']))
    expect(modes.some((line) => /^\.\/content\/files\/blobs\/blob_[0-9a-f]{32}: 600$/.test(line))).toBe(true)
    expect(modes.filter((line) => !/: (600|700)$/.test(line))).toEqual([])
  })

  it('writes an export archive (token hashes, the signing key, every blob) with the same modes', async () => {
    const out = join(parent, 'archive')
    await exportDataset(service.backend, out)
    const modes = await modesUnder(out)
    expect(modes).toEqual(expect.arrayContaining(['./parts/secrets.jsonl: 600', './manifest.json: 600']))
    expect(modes.filter((line) => !/: (600|700)$/.test(line))).toEqual([])
  })

  it('warns, with the fix, about a folder made before that lets other users in', async () => {
    const old = join(parent, 'old')
    await mkdir(old)
    await chmod(old, 0o755)
    expect(openFolderWarning(old)).toBe(`The data folder ${old} is open to other local users (mode 0755): they can copy the database and its signing key. Fix it with: chmod -R go-rwx ${JSON.stringify(old)}`)
    await chmod(old, 0o700)
    expect(openFolderWarning(old)).toBeUndefined()
  })
})
