export { errorTypes, errorTypeNames, isErrorType, type ErrorType } from './error-types.js'
export { ErrorBodySchema, newErrorId, type ErrorBody } from './error-body.js'
export { ListMetaSchema, type ListMeta } from './pagination.js'
export { defineOperation, type Operation, type OperationInput, type OperationOutput, type HttpMethod } from './operation.js'
