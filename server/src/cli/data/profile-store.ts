import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { UsageError } from '../io.js'

/** A saved connection: what `botshelf login` stores under a profile name. */
export interface Profile {
  url: string
  token: string
  botId: string
}

/** The profiles file: `{ "profiles": { "<name>": { url, token, botId } } }`. */
interface ProfilesFile {
  profiles: Record<string, Profile>
}

/**
 * Where `botshelf login` keeps its profiles: `$BOTSHELF_CONFIG_DIR/profiles.json`, else
 * `$XDG_CONFIG_HOME/botshelf/profiles.json`, else `~/.config/botshelf/profiles.json`.
 *
 * @example
 * ```ts
 * profilesPath(process.env) // '/home/ada/.config/botshelf/profiles.json'
 * ```
 */
export function profilesPath(env: Readonly<Record<string, string | undefined>>): string {
  if (env.BOTSHELF_CONFIG_DIR) return join(env.BOTSHELF_CONFIG_DIR, 'profiles.json')
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config')
  return join(base, 'botshelf', 'profiles.json')
}

async function readProfiles(path: string): Promise<ProfilesFile> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} }
    throw error
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new UsageError(`${path} is not valid JSON; fix it or delete it and run "botshelf login" again`)
  }
  const profiles = (parsed as Partial<ProfilesFile> | null)?.profiles
  if (typeof profiles !== 'object' || profiles === null) throw new UsageError(`${path}: expected { "profiles": { ... } }`)
  return { profiles }
}

/**
 * Reads one saved profile, or `undefined` when there is none of that name.
 *
 * @example
 * ```ts
 * const profile = await loadProfile(profilesPath(process.env), 'default')
 * ```
 */
export async function loadProfile(path: string, name: string): Promise<Profile | undefined> {
  return (await readProfiles(path)).profiles[name]
}

/**
 * Saves (or replaces) a profile. The file holds tokens: it is written readable by its owner only (0600), to a
 * temporary file renamed over the old one, so an interrupted save never leaves it half-written.
 *
 * @example
 * ```ts
 * await saveProfile(profilesPath(process.env), 'default', { url: 'http://127.0.0.1:3000', token, botId })
 * ```
 */
export async function saveProfile(path: string, name: string, profile: Profile): Promise<void> {
  const file = await readProfiles(path)
  file.profiles[name] = profile
  await writeAtomically(path, `${JSON.stringify(file, null, 2)}\n`)
}

/**
 * Removes a profile; resolves to whether there was one.
 *
 * @example
 * ```ts
 * await removeProfile(profilesPath(process.env), 'staging')
 * ```
 */
export async function removeProfile(path: string, name: string): Promise<boolean> {
  const file = await readProfiles(path)
  if (!(name in file.profiles)) return false
  delete file.profiles[name]
  await writeAtomically(path, `${JSON.stringify(file, null, 2)}\n`)
  return true
}

async function writeAtomically(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 })
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`
  try {
    await writeFile(temporary, text, { mode: 0o600 })
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
}
