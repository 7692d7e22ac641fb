export {
  MAX_BURST,
  MAX_PER_SECOND,
  bucketLimitProblem,
  defaultBurstFor,
  describeBucketLimit,
  formatBucketLimit,
  formatRate,
  type BucketLimit,
} from './bucket-limit.js'
export { fullAt, takeTokens, tokensAt, type BucketState, type RateLimitDecision } from './token-bucket.js'
export type { RateLimitStore } from './store.js'
export { MemoryRateLimitStore, type MemoryRateLimitStoreOptions } from './memory-store.js'
export {
  RateLimitOptionError,
  defaultRateLimits,
  describeRateLimits,
  parseRateLimitSpec,
  resolveRateLimits,
  type RateLimitOptions,
  type ResolvedRateLimits,
} from './options.js'
export { addressKey } from './client-address.js'
export { rateLimitedResponse, retryAfterSeconds, type RateLimitScope } from './rate-limited-response.js'
export { createRateLimiter, type RateLimitContext } from './middleware.js'
