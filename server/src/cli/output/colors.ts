import pc from 'picocolors'
import { envOf, type CliIo, type CliStream } from '../io.js'

/** The colour functions of one stream: real ANSI colours on a terminal, identity functions otherwise. */
export type Colors = ReturnType<typeof pc.createColors>

/**
 * Colours for a stream: on when it is a terminal and neither `NO_COLOR` is set nor `FORCE_COLOR=0`; off in
 * pipes and files, so output stays plain text for scripts.
 *
 * @example
 * ```ts
 * const c = colorsFor(io, io.stderr)
 * io.stderr.write(`${c.red('error')}: ...\n`)
 * ```
 */
export function colorsFor(io: CliIo, stream: CliStream): Colors {
  const env = envOf(io)
  const enabled = stream.isTTY === true && env.NO_COLOR === undefined && env.FORCE_COLOR !== '0' && env.TERM !== 'dumb'
  return pc.createColors(enabled)
}
