import type { ErrorType } from '../../api/error-types.js'
import { ApiError } from './api-error.js'

/**
 * Wire error type `Unknown` (HTTP 500): An unknown error occurred
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof UnknownError) console.log(e.code, e.message)
 * }
 * ```
 */
export class UnknownError extends ApiError<'Unknown'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('Unknown', message, error, id, metadata)
  }
}

/**
 * Wire error type `Internal` (HTTP 500): An internal error occurred
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof InternalError) console.log(e.code, e.message)
 * }
 * ```
 */
export class InternalError extends ApiError<'Internal'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('Internal', message, error, id, metadata)
  }
}

/**
 * Wire error type `Unauthorized` (HTTP 401): The request requires to be authenticated.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof UnauthorizedError) console.log(e.code, e.message)
 * }
 * ```
 */
export class UnauthorizedError extends ApiError<'Unauthorized'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('Unauthorized', message, error, id, metadata)
  }
}

/**
 * Wire error type `Forbidden` (HTTP 403): The requested action can't be peform by this resource.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof ForbiddenError) console.log(e.code, e.message)
 * }
 * ```
 */
export class ForbiddenError extends ApiError<'Forbidden'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('Forbidden', message, error, id, metadata)
  }
}

/**
 * Wire error type `PayloadTooLarge` (HTTP 413): The request payload is too large.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof PayloadTooLargeError) console.log(e.code, e.message)
 * }
 * ```
 */
export class PayloadTooLargeError extends ApiError<'PayloadTooLarge'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('PayloadTooLarge', message, error, id, metadata)
  }
}

/**
 * Wire error type `InvalidPayload` (HTTP 400): The request payload is invalid.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof InvalidPayloadError) console.log(e.code, e.message)
 * }
 * ```
 */
export class InvalidPayloadError extends ApiError<'InvalidPayload'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('InvalidPayload', message, error, id, metadata)
  }
}

/**
 * Wire error type `UnsupportedMediaType` (HTTP 415): The request is invalid because the content-type is not supported.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof UnsupportedMediaTypeError) console.log(e.code, e.message)
 * }
 * ```
 */
export class UnsupportedMediaTypeError extends ApiError<'UnsupportedMediaType'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('UnsupportedMediaType', message, error, id, metadata)
  }
}

/**
 * Wire error type `MethodNotFound` (HTTP 405): The requested method does not exist.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof MethodNotFoundError) console.log(e.code, e.message)
 * }
 * ```
 */
export class MethodNotFoundError extends ApiError<'MethodNotFound'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('MethodNotFound', message, error, id, metadata)
  }
}

/**
 * Wire error type `ResourceNotFound` (HTTP 404): The requested resource does not exist.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof ResourceNotFoundError) console.log(e.code, e.message)
 * }
 * ```
 */
export class ResourceNotFoundError extends ApiError<'ResourceNotFound'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('ResourceNotFound', message, error, id, metadata)
  }
}

/**
 * Wire error type `InvalidJsonSchema` (HTTP 400): The provided JSON schema is invalid.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof InvalidJsonSchemaError) console.log(e.code, e.message)
 * }
 * ```
 */
export class InvalidJsonSchemaError extends ApiError<'InvalidJsonSchema'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('InvalidJsonSchema', message, error, id, metadata)
  }
}

/**
 * Wire error type `InvalidDataFormat` (HTTP 400): The provided data doesn't respect the provided JSON schema.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof InvalidDataFormatError) console.log(e.code, e.message)
 * }
 * ```
 */
export class InvalidDataFormatError extends ApiError<'InvalidDataFormat'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('InvalidDataFormat', message, error, id, metadata)
  }
}

/**
 * Wire error type `InvalidIdentifier` (HTTP 400): The provided identifier is not valid. An identifier must start with a lowercase letter, be between 2 and 100 characters long and use only alphanumeric characters.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof InvalidIdentifierError) console.log(e.code, e.message)
 * }
 * ```
 */
export class InvalidIdentifierError extends ApiError<'InvalidIdentifier'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('InvalidIdentifier', message, error, id, metadata)
  }
}

/**
 * Wire error type `RelationConflict` (HTTP 409): The resource is related with a different resource that the one referenced in the request. This is usually caused when providing two resource identifiers that aren't linked together.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof RelationConflictError) console.log(e.code, e.message)
 * }
 * ```
 */
export class RelationConflictError extends ApiError<'RelationConflict'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('RelationConflict', message, error, id, metadata)
  }
}

/**
 * Wire error type `ReferenceConstraint` (HTTP 409): The resource cannot be deleted because it's referenced by another resource
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof ReferenceConstraintError) console.log(e.code, e.message)
 * }
 * ```
 */
export class ReferenceConstraintError extends ApiError<'ReferenceConstraint'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('ReferenceConstraint', message, error, id, metadata)
  }
}

/**
 * Wire error type `ResourceLockedConflict` (HTTP 409): The resource is current locked and cannot be operated on until the lock is released.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof ResourceLockedConflictError) console.log(e.code, e.message)
 * }
 * ```
 */
export class ResourceLockedConflictError extends ApiError<'ResourceLockedConflict'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('ResourceLockedConflict', message, error, id, metadata)
  }
}

/**
 * Wire error type `ResourceGone` (HTTP 410): The requested resource is no longer available.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof ResourceGoneError) console.log(e.code, e.message)
 * }
 * ```
 */
export class ResourceGoneError extends ApiError<'ResourceGone'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('ResourceGone', message, error, id, metadata)
  }
}

/**
 * Wire error type `ReferenceNotFound` (HTTP 400): The provided resource reference is missing. This is usually caused when providing an invalid id inside the payload of a request.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof ReferenceNotFoundError) console.log(e.code, e.message)
 * }
 * ```
 */
export class ReferenceNotFoundError extends ApiError<'ReferenceNotFound'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('ReferenceNotFound', message, error, id, metadata)
  }
}

/**
 * Wire error type `InvalidQuery` (HTTP 400): The provided query is invalid. This is usually caused when providing an invalid parameter for querying a resource.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof InvalidQueryError) console.log(e.code, e.message)
 * }
 * ```
 */
export class InvalidQueryError extends ApiError<'InvalidQuery'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('InvalidQuery', message, error, id, metadata)
  }
}

/**
 * Wire error type `Runtime` (HTTP 400): An error happened during the execution of a runtime (bot or integration).
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof RuntimeError) console.log(e.code, e.message)
 * }
 * ```
 */
export class RuntimeError extends ApiError<'Runtime'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('Runtime', message, error, id, metadata)
  }
}

/**
 * Wire error type `AlreadyExists` (HTTP 409): The record attempted to be created already exists.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof AlreadyExistsError) console.log(e.code, e.message)
 * }
 * ```
 */
export class AlreadyExistsError extends ApiError<'AlreadyExists'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('AlreadyExists', message, error, id, metadata)
  }
}

/**
 * Wire error type `RateLimited` (HTTP 429): The request has been rate limited.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof RateLimitedError) console.log(e.code, e.message)
 * }
 * ```
 */
export class RateLimitedError extends ApiError<'RateLimited'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('RateLimited', message, error, id, metadata)
  }
}

/**
 * Wire error type `PaymentRequired` (HTTP 402): A payment is required to perform this request.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof PaymentRequiredError) console.log(e.code, e.message)
 * }
 * ```
 */
export class PaymentRequiredError extends ApiError<'PaymentRequired'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('PaymentRequired', message, error, id, metadata)
  }
}

/**
 * Wire error type `QuotaExceeded` (HTTP 403): The request exceeds the allowed quota. Quotas are a soft limit that can be increased.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof QuotaExceededError) console.log(e.code, e.message)
 * }
 * ```
 */
export class QuotaExceededError extends ApiError<'QuotaExceeded'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('QuotaExceeded', message, error, id, metadata)
  }
}

/**
 * Wire error type `LimitExceeded` (HTTP 413): The request exceeds the allowed limit. Limits are a hard limit that cannot be increased.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof LimitExceededError) console.log(e.code, e.message)
 * }
 * ```
 */
export class LimitExceededError extends ApiError<'LimitExceeded'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('LimitExceeded', message, error, id, metadata)
  }
}

/**
 * Wire error type `BreakingChanges` (HTTP 400): Request payload contains breaking changes which is not allowed for this resource without a version increment.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof BreakingChangesError) console.log(e.code, e.message)
 * }
 * ```
 */
export class BreakingChangesError extends ApiError<'BreakingChanges'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('BreakingChanges', message, error, id, metadata)
  }
}

/**
 * Wire error type `OperationTimeout` (HTTP 504): The operation timed out.
 *
 * @example
 * ```ts
 * try {
 *   await client.getFile({ id: 'a.txt' })
 * } catch (e) {
 *   if (e instanceof OperationTimeoutError) console.log(e.code, e.message)
 * }
 * ```
 */
export class OperationTimeoutError extends ApiError<'OperationTimeout'> {
  public constructor(message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) {
    super('OperationTimeout', message, error, id, metadata)
  }
}

/**
 * A constructor of one of the API error classes.
 *
 * @example
 * ```ts
 * const ErrorClass: ApiErrorClass = apiErrorClasses.RateLimited
 * throw new ErrorClass('slow down')
 * ```
 */
export type ApiErrorClass = new (message: string, error?: Error, id?: string, metadata?: Record<string, unknown>) => ApiError

/**
 * The error class of each wire error `type`.
 *
 * @example
 * ```ts
 * new apiErrorClasses.ResourceNotFound('File "a.txt" not found') instanceof ResourceNotFoundError // true
 * ```
 */
export const apiErrorClasses = {
  Unknown: UnknownError,
  Internal: InternalError,
  Unauthorized: UnauthorizedError,
  Forbidden: ForbiddenError,
  PayloadTooLarge: PayloadTooLargeError,
  InvalidPayload: InvalidPayloadError,
  UnsupportedMediaType: UnsupportedMediaTypeError,
  MethodNotFound: MethodNotFoundError,
  ResourceNotFound: ResourceNotFoundError,
  InvalidJsonSchema: InvalidJsonSchemaError,
  InvalidDataFormat: InvalidDataFormatError,
  InvalidIdentifier: InvalidIdentifierError,
  RelationConflict: RelationConflictError,
  ReferenceConstraint: ReferenceConstraintError,
  ResourceLockedConflict: ResourceLockedConflictError,
  ResourceGone: ResourceGoneError,
  ReferenceNotFound: ReferenceNotFoundError,
  InvalidQuery: InvalidQueryError,
  Runtime: RuntimeError,
  AlreadyExists: AlreadyExistsError,
  RateLimited: RateLimitedError,
  PaymentRequired: PaymentRequiredError,
  QuotaExceeded: QuotaExceededError,
  LimitExceeded: LimitExceededError,
  BreakingChanges: BreakingChangesError,
  OperationTimeout: OperationTimeoutError,
} as const satisfies Record<ErrorType, ApiErrorClass>

/**
 * Any of the 26 API error classes' instances; narrow it with `type`.
 *
 * @example
 * ```ts
 * function describe(e: AnyApiError) { return e.type === 'ResourceNotFound' ? 'missing' : e.message }
 * ```
 */
export type AnyApiError =
  | UnknownError
  | InternalError
  | UnauthorizedError
  | ForbiddenError
  | PayloadTooLargeError
  | InvalidPayloadError
  | UnsupportedMediaTypeError
  | MethodNotFoundError
  | ResourceNotFoundError
  | InvalidJsonSchemaError
  | InvalidDataFormatError
  | InvalidIdentifierError
  | RelationConflictError
  | ReferenceConstraintError
  | ResourceLockedConflictError
  | ResourceGoneError
  | ReferenceNotFoundError
  | InvalidQueryError
  | RuntimeError
  | AlreadyExistsError
  | RateLimitedError
  | PaymentRequiredError
  | QuotaExceededError
  | LimitExceededError
  | BreakingChangesError
  | OperationTimeoutError
