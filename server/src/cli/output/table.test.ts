import { describe, expect, it } from 'vitest'
import type { CliStream } from '../io.js'
import { escapeControls } from './escape-controls.js'
import { renderTable } from './table.js'

const pipe = { write: () => true, isTTY: false } as unknown as CliStream
const terminal = { write: () => true, isTTY: true, columns: 120 } as unknown as CliStream

// Finding 7 of issue 28: `files ls` and `tables find` printed ESC, BEL and NUL raw.
describe('human-readable CLI output never carries a control character from the data', () => {
  const hostile = ['osc52\u001b]52;c;aGk=\u0007.txt', 'clear\u001b[2J', 'nul\u0000', 'c1\u009b31m', 'rtl\u202Etxt.exe']

  it('escapes C0, C1, DEL and bidirectional controls, and keeps other text', () => {
    expect(hostile.map(escapeControls)).toEqual(['osc52\\u001b]52;c;aGk=\\u0007.txt', 'clear\\u001b[2J', 'nul\\u0000', 'c1\\u009b31m', 'rtl\\u202etxt.exe'])
    expect(escapeControls('café ☕ 日本')).toBe('café ☕ 日本')
  })

  it('escapes them in every cell and in tags, in a pipe and on a terminal', () => {
    for (const stream of [pipe, terminal]) {
      const out = renderTable(stream, ['key', 'tags'], hostile.map((key) => [key, { note: key }]))
      // eslint-disable-next-line no-control-regex
      expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/)
      expect(out).toContain('osc52\\u001b]52;c;aGk=\\u0007.txt')
    }
  })
})
