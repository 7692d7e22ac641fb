/** The sandbox code columns run in (decision 1423): `createCodeSandbox` and what it answers. */
export { createCodeSandbox, CODE_SANDBOX_BOUNDS, CODE_SANDBOX_DEFAULTS, type CodeRunOutcome, type CodeSandbox, type CodeSandboxOptions } from './code-sandbox.js'
export { SandboxError, type SandboxErrorCode } from './sandbox-error.js'
export { MAX_RESULT_JSON_BYTES } from './json-values.js'
export { MAX_REASON_LENGTH } from './failure-reasons.js'
