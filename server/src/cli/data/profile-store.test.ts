import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadProfile, profilesPath, removeProfile, saveProfile } from './profile-store.js'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

describe('profile store', () => {
  it('finds its file from BOTSHELF_CONFIG_DIR, XDG_CONFIG_HOME, then HOME', () => {
    expect(profilesPath({ BOTSHELF_CONFIG_DIR: '/c', XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/c/profiles.json')
    expect(profilesPath({ XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/x/botshelf/profiles.json')
    expect(profilesPath({ HOME: '/h' })).toBe('/h/.config/botshelf/profiles.json')
  })

  it('saves owner-only, atomically (no temporary file stays), loads and removes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'botshelf-profiles-'))
    dirs.push(dir)
    const path = join(dir, 'nested', 'profiles.json')
    await saveProfile(path, 'default', { url: 'http://a', token: 't1', botId: 'b1' })
    await saveProfile(path, 'staging', { url: 'http://b', token: 't2', botId: 'b2' })
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    expect(await readdir(join(dir, 'nested'))).toEqual(['profiles.json'])
    expect(await loadProfile(path, 'staging')).toEqual({ url: 'http://b', token: 't2', botId: 'b2' })
    expect(await removeProfile(path, 'staging')).toBe(true)
    expect(await removeProfile(path, 'staging')).toBe(false)
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ profiles: { default: { url: 'http://a', token: 't1', botId: 'b1' } } })
  })

  it('says which file is broken instead of failing on it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'botshelf-profiles-'))
    dirs.push(dir)
    const path = join(dir, 'profiles.json')
    await writeFile(path, '{nope')
    await expect(loadProfile(path, 'default')).rejects.toThrow(`${path} is not valid JSON`)
  })
})
