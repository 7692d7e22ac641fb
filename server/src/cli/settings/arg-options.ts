import type { Setting } from './setting.js'

/** The `node:util` parseArgs option table of some settings, keyed by flag: every one takes a value, some repeat. */
export type SettingArgOptions<S extends readonly Setting[]> = {
  [Entry in S[number] as Entry['flag']]: Entry extends { multiple: true } ? { type: 'string'; multiple: true } : { type: 'string' }
}

/**
 * The `parseArgs` option table of some settings.
 *
 * @example
 * ```ts
 * parseCommandArgs(args, { ...settingArgOptions(serveSettings), help: { type: 'boolean', short: 'h' } }, 'serve')
 * ```
 */
export function settingArgOptions<const S extends readonly Setting[]>(settings: S): SettingArgOptions<S> {
  return Object.fromEntries(
    settings.map((setting) => [setting.flag, setting.multiple === true ? { type: 'string', multiple: true } : { type: 'string' }]),
  ) as SettingArgOptions<S>
}
