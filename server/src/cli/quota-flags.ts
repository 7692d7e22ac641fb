import type { StorageQuotas } from '../usage/index.js'
import { UsageError } from './io.js'
import { renderSettingsHelp } from './settings/render-help.js'
import { settingArgOptions } from './settings/arg-options.js'
import { serveSettings } from './settings/serve-settings.js'

const quotaSettings = serveSettings.filter((setting) => setting.section === 'quotas')

/**
 * The `serve` flags that set the workspace's storage quotas (docs/search.md "Accounting and quotas").
 *
 * @example
 * ```ts
 * parseCommandArgs(args, { ...quotaFlags, port: { type: 'string' } }, 'serve')
 * ```
 */
export const quotaFlags = settingArgOptions(quotaSettings) as { 'quota-file-storage': { type: 'string' }; 'quota-vector-storage': { type: 'string' } }

/**
 * Help lines of {@link quotaFlags}.
 *
 * @example
 * ```ts
 * const help = `Options:\n${quotaFlagsHelp}`
 * ```
 */
export const quotaFlagsHelp = renderSettingsHelp(quotaSettings, 'quotas')

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4 }

/**
 * A size flag: a number of bytes with an optional binary unit (B, KB, MB, GB, TB; 1 KB = 1024 bytes).
 *
 * @example
 * ```ts
 * parseByteSize('10GB', '--quota-file-storage') // 10737418240
 * ```
 */
export function parseByteSize(text: string, flag: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?b)?\s*$/i.exec(text)
  const unit = UNITS[(match?.[2] ?? 'b').toLowerCase()]
  if (!match || unit === undefined) throw new UsageError(`${flag} must be a size like 500MB or 10GB (units B, KB, MB, GB, TB), received ${JSON.stringify(text)}`)
  return Math.floor(Number(match[1]) * unit)
}

/**
 * The quotas the `serve` flags give, or `undefined` when none is set.
 *
 * @example
 * ```ts
 * parseQuotaFlags({ 'quota-vector-storage': '1GB' }) // { vectorStorageBytes: 1073741824 }
 * ```
 */
export function parseQuotaFlags(values: { 'quota-file-storage'?: string; 'quota-vector-storage'?: string }): StorageQuotas | undefined {
  const file = values['quota-file-storage']
  const vector = values['quota-vector-storage']
  if (file === undefined && vector === undefined) return undefined
  return {
    ...(file !== undefined ? { fileStorageBytes: parseByteSize(file, '--quota-file-storage') } : {}),
    ...(vector !== undefined ? { vectorStorageBytes: parseByteSize(vector, '--quota-vector-storage') } : {}),
  }
}
