// The `botshelf` entry: event model, hook/action runtime, webhook receiver and its inbox. No server, SQLite or native module.
// Each folder's index.ts is the one list of its public names; this entry takes them whole.
export * from './event/index.js'
export * from './runtime/index.js'
export * from './webhook/index.js'
// The durable inbox and worker of the acknowledge-first receiver.
export * from './inbox/index.js'
// The clock type that the `now` options take.
export type { Clock, ClockLike } from './clock/index.js'
// The base class of every error botshelf raises (runtime, webhook, event, service), with its stable `code`.
export { BotshelfError } from './errors/index.js'
// Only the issue type is public here; the formatting helpers stay internal.
export type { ReadableIssue } from './issues/index.js'
