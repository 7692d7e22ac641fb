// The one bounded cache: a Map with a capacity and a named eviction policy.
export { BoundedMap, type EvictionPolicy } from './bounded-map.js'
