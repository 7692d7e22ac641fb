// The one clock type and the real clock, shared by the runtime, the webhook receiver, the testing kit and the service.
export { systemClock, toClock, clockMs, type Clock, type ClockLike } from './clock.js'
