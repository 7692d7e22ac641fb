import type { Setting, SettingSection } from './setting.js'

/** The column the help text of every flag starts at. */
const HELP_COLUMN = 22

/**
 * The help lines of the settings of one section, aligned like the rest of a command's help: the flag and its
 * value, then its text from column 22 (on the next line when the flag is too long to leave room).
 *
 * @example
 * ```ts
 * const options = renderSettingsHelp(serveSettings, 'options')
 * // '  --port <n>          TCP port (default 3000; 0 picks a free one)\n...'
 * ```
 */
export function renderSettingsHelp(settings: readonly Setting[], section: SettingSection): string {
  const indent = ' '.repeat(HELP_COLUMN)
  return settings
    .filter((setting) => setting.section === section)
    .map((setting) => {
      const label = `  --${setting.flag} ${setting.value}`
      const [first = '', ...rest] = setting.help
      const head = label.length < HELP_COLUMN ? `${label.padEnd(HELP_COLUMN)}${first}` : `${label}\n${indent}${first}`
      return [head, ...rest.map((line) => `${indent}${line}`)].join('\n')
    })
    .join('\n')
}
