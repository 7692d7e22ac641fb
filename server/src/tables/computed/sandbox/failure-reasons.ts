/** What went wrong in one computation, before it is worded for the cell's status. */
export type EngineFailure =
  | { kind: 'time' }
  | { kind: 'memory' }
  | { kind: 'stack' }
  | { kind: 'never-settled' }
  | { kind: 'syntax'; message: string }
  | { kind: 'thrown'; message: string }
  | { kind: 'not-json'; message: string }
  | { kind: 'engine'; message: string }
  | { kind: 'watchdog' }
  | { kind: 'crashed'; message: string }

/** The longest reason kept: a reason is shown in a cell's status, and the code decides what it throws. */
export const MAX_REASON_LENGTH = 500

/** Names that exist in Node.js or browsers but not in the sandbox; meeting one gets a hint about why. */
const HOST_ONLY_NAMES = new Set([
  'process', 'require', 'module', 'exports', 'fetch', 'XMLHttpRequest', 'WebSocket', 'setTimeout', 'setInterval',
  'setImmediate', 'queueMicrotask', 'Buffer', 'global', '__dirname', '__filename', 'window', 'document', 'navigator',
  'crypto', 'performance', 'structuredClone', 'TextEncoder', 'TextDecoder', 'URL', 'AbortController', 'Deno', 'Bun',
])

const SANDBOX_HINT = 'code columns run in a sandbox without process, modules, files, network or timers: compute from `row` only'

/**
 * Words one failed computation for the cell's `computed[column].error`: what happened, the limit it met, and a
 * hint when the code reached for something the sandbox does not have. Cut to `MAX_REASON_LENGTH` characters.
 *
 * @example
 * ```ts
 * failureReason({ kind: 'time' }, { timeLimitMs: 1000, memoryLimitBytes: 64 << 20 })
 * // 'time limit: the code ran longer than 1000 ms, the most one computation may take'
 * ```
 */
export function failureReason(failure: EngineFailure, limits: { timeLimitMs: number; memoryLimitBytes: number }): string {
  return clip(word(failure, limits))
}

function word(failure: EngineFailure, limits: { timeLimitMs: number; memoryLimitBytes: number }): string {
  switch (failure.kind) {
    case 'time':
      return `time limit: the code ran longer than ${limits.timeLimitMs} ms, the most one computation may take`
    case 'watchdog':
      return `time limit: the code ran longer than ${limits.timeLimitMs} ms, the most one computation may take, and did not stop (its worker was replaced)`
    case 'memory':
      return `memory limit: the code needed more than ${formatBytes(limits.memoryLimitBytes)}, the most one computation may use`
    case 'stack':
      return 'stack overflow: the code nests calls too deeply'
    case 'never-settled':
      return 'the code awaits a promise that never settles (the sandbox has no timers, network or other events to settle it)'
    case 'syntax':
      return `the code does not compile: ${failure.message}`
    case 'thrown':
      return `the code threw ${failure.message}${hintFor(failure.message)}`
    case 'not-json':
      return `the code returned a value with no JSON form: ${failure.message}`
    case 'engine':
      return `the sandbox failed while running the code: ${failure.message}`
    case 'crashed':
      return `the sandbox worker stopped while running the code (${failure.message}); it was replaced`
  }
}

/** For `ReferenceError: 'process' is not defined` and the like. */
function hintFor(message: string): string {
  const missing = /^ReferenceError: '?([A-Za-z_$][\w$]*)'? is not defined/.exec(message)
  if (missing && HOST_ONLY_NAMES.has(missing[1]!)) return ` (${SANDBOX_HINT})`
  if (/^(TypeError|SyntaxError|Error): .*(import|module)/i.test(message)) return ` (${SANDBOX_HINT})`
  return ''
}

function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024)
  return Number.isInteger(mb) ? `${mb} MB` : `${bytes} bytes`
}

function clip(reason: string): string {
  return reason.length <= MAX_REASON_LENGTH ? reason : `${reason.slice(0, MAX_REASON_LENGTH - 1)}…`
}
