/** Where a setting is listed in `serve --help`: the main options, the embeddings service, the language model, or the quotas. */
export type SettingSection = 'options' | 'embeddings' | 'language-model' | 'quotas'

/**
 * One option of a command, declared once: its flag, the environment variable that stands for it, its default and
 * its help. The argument parser, the help text and the option table of docs/server.md are all made from these.
 *
 * @example
 * ```ts
 * const port: Setting = { flag: 'port', value: '<n>', default: '`3000`', help: ['TCP port (default 3000; 0 picks a free one)'], docs: 'TCP port; `0` picks a free one', section: 'options' }
 * ```
 */
export interface Setting {
  /** The long flag without its dashes: `port` for `--port`. */
  readonly flag: string
  /** How the help names the flag's value: `<n>`, `<url>`. */
  readonly value: string
  /** The environment variable read when the flag is absent (the flag wins). */
  readonly variable?: string
  /** The flag may be given several times (`--cors-origin a --cors-origin b`). */
  readonly multiple?: boolean
  /** The default as docs/server.md shows it (Markdown). */
  readonly default: string
  /** The lines `--help` prints after the flag, without their indentation. */
  readonly help: readonly string[]
  /** The meaning column of docs/server.md (Markdown). */
  readonly docs: string
  readonly section: SettingSection
}
