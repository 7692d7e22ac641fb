import type { ComputedColumn } from './computed-column.js'
import type { Computation } from './computation.js'
import { convertAnswer } from './answer-conversion.js'

/** The sandbox that runs code columns (built in `./sandbox/`): each `run` is isolated, time- and memory-limited. */
export interface CodeSandbox {
  run(code: string, row: Record<string, unknown>): Promise<{ ok: true; value: unknown } | { ok: false; reason: string }>
  close(): Promise<void>
}

/** Makes a sandbox (`createCodeSandbox` of `./sandbox/`). */
export type CodeSandboxFactory = (options?: { timeLimitMs?: number; memoryLimitBytes?: number }) => CodeSandbox

/** Limits of one code computation: 1 s and 64 MB unless the feature is given others. */
export const CODE_LIMITS = { timeLimitMs: 1_000, memoryLimitBytes: 64 * 1024 * 1024 } as const

/**
 * The sandbox factory of `./sandbox/`, loaded on first use; `undefined` when this build has none, so a code column
 * fails with a reason that says so instead of running code unsandboxed.
 *
 * @example
 * ```ts
 * const factory = await loadCodeSandboxFactory()
 * ```
 */
export async function loadCodeSandboxFactory(): Promise<CodeSandboxFactory | undefined> {
  // The sandbox module is built apart (a WebAssembly engine); a path in a variable keeps it optional at build time.
  const path = './sandbox/index.js'
  try {
    const module = (await import(path)) as { createCodeSandbox?: CodeSandboxFactory }
    return typeof module.createCodeSandbox === 'function' ? module.createCodeSandbox : undefined
  } catch {
    return undefined
  }
}

/**
 * Computes a code column's value for one row: runs `code` (the body of an async function receiving `row`, the
 * dependency columns) in the sandbox and checks the value against the column's type.
 *
 * @example
 * ```ts
 * const outcome = await computeWithCode(sandbox, column, { a: 1, b: 2 }) // { kind: 'value', value: 3, updatedBy: 'code' }
 * ```
 */
export async function computeWithCode(sandbox: CodeSandbox | undefined, column: ComputedColumn, row: Record<string, unknown>): Promise<Computation> {
  if (!sandbox) return { kind: 'failed', reason: 'code columns are not available yet: this build has no code sandbox', updatedBy: 'code' }
  const result = await sandbox.run(column.code ?? '', row)
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
