import type { ComputedColumn } from './computed-column.js'
import type { Computation } from './computation.js'
import { convertAnswer } from './answer-conversion.js'
import { SandboxError, type CodeSandbox, type CodeSandboxOptions } from './sandbox/index.js'

/** Makes a sandbox (`createCodeSandbox` of `./sandbox/` by default; tests and benches may pass another). */
export type CodeSandboxFactory = (options?: CodeSandboxOptions) => CodeSandbox

/**
 * One sandbox for a feature, started on the first code computation (its worker threads are not free) and shared by
 * every table's computations; `close()` stops it with the feature.
 *
 * @example
 * ```ts
 * const shared = sharedCodeSandbox(createCodeSandbox, { timeLimitMs: 1_000, memoryLimitBytes: 64 * 1024 * 1024 })
 * const sandbox = shared.get()
 * await shared.close()
 * ```
 */
export function sharedCodeSandbox(factory: CodeSandboxFactory | null, options: CodeSandboxOptions): { get(): CodeSandbox | undefined; close(): Promise<void> } {
  let sandbox: CodeSandbox | undefined
  return {
    get() {
      if (!factory) return undefined
      sandbox ??= factory(options)
      return sandbox
    },
    async close() {
      const open = sandbox
      sandbox = undefined
      await open?.close()
    },
  }
}

/**
 * Computes a code column's value for one row: runs `code` (the body of an async function receiving `row`, the
 * dependency columns) in the sandbox and checks the value against the column's type. A sandbox that cannot answer is
 * `unavailable` (tried again later); without a sandbox (`sandbox: null`) the cell fails saying so.
 *
 * @example
 * ```ts
 * const outcome = await computeWithCode(sandbox, column, { a: 1, b: 2 }) // { kind: 'value', value: 3, updatedBy: 'code' }
 * ```
 */
export async function computeWithCode(sandbox: CodeSandbox | undefined, column: ComputedColumn, row: Record<string, unknown>): Promise<Computation> {
  if (!sandbox) return { kind: 'failed', reason: 'code columns are switched off on this server (no code sandbox)', updatedBy: 'code' }
  let result: Awaited<ReturnType<CodeSandbox['run']>>
  try {
    result = await sandbox.run(column.code ?? '', row)
  } catch (error) {
    // The sandbox itself could not answer (closing, its workers failing): try again later, do not fail the cell.
    if (error instanceof SandboxError) return { kind: 'unavailable', reason: error.message, retryAfterMs: 1_000 }
    throw error
  }
  if (!result.ok) return { kind: 'failed', reason: result.reason, updatedBy: 'code' }
  const fits = valueFits(result.value, column.schema)
  return fits.ok ? { kind: 'value', value: fits.value, updatedBy: 'code' } : { kind: 'failed', reason: fits.reason, updatedBy: 'code' }
}

/** A code result checked against the column's type (`null` and `undefined` clear the cell; a date string is read). */
function valueFits(value: unknown, schema: ComputedColumn['schema']): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (value === undefined || value === null) return { ok: true, value: null }
  const fail = (expected: string) => ({ ok: false as const, reason: `the code returned a value that does not fit the column: expected ${expected}, received ${describe(value)}` })
  switch (schema.type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? { ok: true, value } : fail('a finite number')
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : fail('a boolean')
    case 'string':
      if (typeof value !== 'string') return fail('a string')
      return schema.format === 'date-time' || schema.enum ? convertAnswer(value, schema) : { ok: true, value }
    case 'object':
      return typeof value === 'object' && !Array.isArray(value) ? { ok: true, value } : fail('an object')
    case 'array':
      return Array.isArray(value) ? { ok: true, value } : fail('an array')
    default:
      return { ok: true, value }
  }
}

function describe(value: unknown): string {
  const text = JSON.stringify(value)
  return text === undefined ? typeof value : text.length > 60 ? `${text.slice(0, 60)}…` : text
}
