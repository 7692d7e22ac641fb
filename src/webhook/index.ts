export {
  createWebhookHandler,
  MAX_WEBHOOK_BODY_BYTES,
  type WebhookHandlerOptions,
  type WebhookSuccessBody,
  type FetchHandler,
} from './create-webhook-handler.js'
export { toNodeHandler, toFetchRequest, type NodeHandlerOptions, type NodeRequestListener } from './node-adapter.js'
export { verifyWebhook, type VerifyWebhookOptions } from './verify-webhook.js'
export { createMemoryDedupeStore, type WebhookDedupeStore, type DedupeClaim, type MemoryDedupeStoreOptions } from './dedupe-store.js'
export { signWebhookPayload, SECRET_PREFIX, type WebhookSecret } from './signature.js'
export { DEFAULT_TOLERANCE_SECONDS, type HeadersLike } from './verifier.js'
export { isActionRequest, type ActionRequestBody } from './action-request.js'
export { recordWebhookRequests, readRecordedRequests, type RecordedRequest, type RecordWebhookRequestsOptions } from './recorded-requests.js'
export {
  WebhookVerificationError,
  WebhookConfigError,
  WebhookBodyConsumedError,
  type WebhookVerificationErrorCode,
  type WebhookErrorBody,
} from './errors.js'
