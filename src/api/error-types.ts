/**
 * The error types of the wire format (docs/wire-format.md §3), with their HTTP status and the
 * description string `@botpress/client` uses. One table serves the server (which emits them)
 * and the client (which turns them back into classes).
 */
export const errorTypes = {
  Unknown: { code: 500, description: 'An unknown error occurred' },
  Internal: { code: 500, description: 'An internal error occurred' },
  Unauthorized: { code: 401, description: 'The request requires to be authenticated.' },
  Forbidden: { code: 403, description: "The requested action can't be peform by this resource." },
  PayloadTooLarge: { code: 413, description: 'The request payload is too large.' },
  InvalidPayload: { code: 400, description: 'The request payload is invalid.' },
  UnsupportedMediaType: {
    code: 415,
    description: 'The request is invalid because the content-type is not supported.',
  },
  MethodNotFound: { code: 405, description: 'The requested method does not exist.' },
  ResourceNotFound: { code: 404, description: 'The requested resource does not exist.' },
  InvalidJsonSchema: { code: 400, description: 'The provided JSON schema is invalid.' },
  InvalidDataFormat: {
    code: 400,
    description: "The provided data doesn't respect the provided JSON schema.",
  },
  InvalidIdentifier: {
    code: 400,
    description:
      'The provided identifier is not valid. An identifier must start with a lowercase letter, be between 2 and 100 characters long and use only alphanumeric characters.',
  },
  RelationConflict: {
    code: 409,
    description:
      "The resource is related with a different resource that the one referenced in the request. This is usually caused when providing two resource identifiers that aren't linked together.",
  },
  ReferenceConstraint: {
    code: 409,
    description: "The resource cannot be deleted because it's referenced by another resource",
  },
  ResourceLockedConflict: {
    code: 409,
    description: 'The resource is current locked and cannot be operated on until the lock is released.',
  },
  ResourceGone: { code: 410, description: 'The requested resource is no longer available.' },
  ReferenceNotFound: {
    code: 400,
    description:
      'The provided resource reference is missing. This is usually caused when providing an invalid id inside the payload of a request.',
  },
  InvalidQuery: {
    code: 400,
    description:
      'The provided query is invalid. This is usually caused when providing an invalid parameter for querying a resource.',
  },
  Runtime: { code: 400, description: 'An error happened during the execution of a runtime (bot or integration).' },
  AlreadyExists: { code: 409, description: 'The record attempted to be created already exists.' },
  RateLimited: { code: 429, description: 'The request has been rate limited.' },
  PaymentRequired: { code: 402, description: 'A payment is required to perform this request.' },
  QuotaExceeded: { code: 403, description: 'The request exceeds the allowed quota. Quotas are a soft limit that can be increased.' },
  LimitExceeded: { code: 413, description: 'The request exceeds the allowed limit. Limits are a hard limit that cannot be increased.' },
  BreakingChanges: { code: 400, description: 'Request payload contains breaking changes which is not allowed for this resource without a version increment.' },
  OperationTimeout: { code: 504, description: 'The operation timed out.' },
} as const satisfies Record<string, { code: number; description: string }>

/**
 * Every error `type` the wire format knows.
 *
 * @example
 * ```ts
 * const type: ErrorType = 'ResourceNotFound'
 * ```
 */
export type ErrorType = keyof typeof errorTypes

/** The list of error types, in the order of docs/wire-format.md §3. */
export const errorTypeNames = Object.keys(errorTypes) as ErrorType[]

/**
 * Tells whether a string is one of the wire error types.
 *
 * @example
 * ```ts
 * isErrorType('ResourceNotFound') // true
 * isErrorType('NotAThing') // false
 * ```
 */
export function isErrorType(value: unknown): value is ErrorType {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(errorTypes, value)
}
