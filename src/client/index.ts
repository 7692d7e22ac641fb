export { Client } from './client.js'
export {
  DEFAULT_API_URL,
  DEFAULT_TIMEOUT_MS,
  resolveClientConfig,
  type ClientOptions,
  type RetryOptions,
  type FetchLike,
  type ResolvedClientConfig,
} from './options.js'
