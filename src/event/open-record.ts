import { z } from 'zod'

/**
 * A structure whose inside the platform does not publish (kb entries, kb results, state; docs/wire-format.md §18):
 * any JSON object, never `any`.
 */
export const OpenRecordSchema = z.record(z.string(), z.unknown())

/** An object whose keys are not known in advance. Values are `unknown`: check them before use. */
export type OpenRecord = Record<string, unknown>
