// Calling a remote HTTP service (embeddings, language models): one attempt, retries honouring Retry-After, messages.
export { retryAfterMs } from './retry-after.js'
export { TransientFailure } from './transient-failure.js'
export { postJsonOnce, type PostJsonOptions, type JsonAnswer } from './post-json.js'
export { retryTransient, type RetryPolicy, type GiveUp } from './retry-transient.js'
export { serviceMessage, causeOf } from './service-message.js'
