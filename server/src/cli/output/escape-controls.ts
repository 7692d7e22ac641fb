// eslint-disable-next-line no-control-regex, no-misleading-character-class
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

/**
 * Text made safe to print on a terminal: C0 and C1 controls, DEL, line separators and bidirectional controls are
 * written as `\u001b`-style escapes, so a stored name cannot clear the screen, write the clipboard (OSC 52), ring
 * the bell or display as another name. Tab, CR and LF are escaped too (a table turns them into spaces first).
 * `--json` output is JSON and needs none of this.
 *
 * @example
 * ```ts
 * escapeControls('evil\u001b[2J.txt') // 'evil\\u001b[2J.txt'
 * ```
 */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
