import type { z } from 'zod'
import type { Operation } from '../api/operation.js'

/** Flattens an intersection into one object type, so editors and errors show plain fields. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {}

/** Input of an object schema; an empty object schema contributes no keys. */
type ObjectInput<S> = S extends z.ZodObject<infer Shape> ? ([keyof Shape] extends [never] ? {} : z.input<S>) : {}

/** Output of a response schema; an empty object schema is `{}`. */
type ObjectOutput<S> =
  S extends z.ZodObject<infer Shape> ? ([keyof Shape] extends [never] ? {} : z.output<S>) : S extends z.ZodType ? z.output<S> : never

/**
 * The flat input a client method takes for an operation: its path parameters, query and body
 * fields in one object, as `@botpress/client` takes them.
 *
 * @example
 * ```ts
 * type GetFileInput = ClientInput<typeof getFile> // { id: string }
 * ```
 */
export type ClientInput<TOp> =
  TOp extends Operation<infer P, infer Q, infer B, z.ZodType> ? Simplify<ObjectInput<P> & ObjectInput<Q> & ObjectInput<B>> : never

/**
 * The response a client method resolves to for an operation.
 *
 * @example
 * ```ts
 * type GetFileOutput = ClientOutput<typeof getFile> // { file: File }
 * ```
 */
export type ClientOutput<TOp> = TOp extends Operation<z.ZodObject, z.ZodObject, z.ZodType, infer R> ? ObjectOutput<R> : never
