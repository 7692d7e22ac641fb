import type { Setting } from './setting.js'

/** The header row of the option table in docs/server.md. */
export const SETTINGS_DOCS_HEADER = '| `serve` option | variable | default | meaning |\n|---|---|---|---|'

/**
 * The option table of docs/server.md, one row per setting, in the order of `--help`.
 *
 * @example
 * ```ts
 * renderSettingsDocs(serveSettings).split('\n')[2] // '| `--port <n>` |  | `3000` | TCP port; `0` picks a free one |'
 * ```
 */
export function renderSettingsDocs(settings: readonly Setting[]): string {
  const rows = settings.map(
    (setting) => `| \`--${setting.flag} ${setting.value}\` | ${setting.variable !== undefined ? `\`${setting.variable}\`` : ''} | ${setting.default} | ${setting.docs} |`,
  )
  return [SETTINGS_DOCS_HEADER, ...rows].join('\n')
}
