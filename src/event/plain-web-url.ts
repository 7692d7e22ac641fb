/**
 * A cheap recognizer of the plainest absolute web URLs, for the payload checks of `z.url()` fields (`imageUrl`,
 * `fileUrl`, ...). Why: zod's URL check trims the string, asks the URL parser (`URL.canParse`) and then strips tabs
 * and newlines with a regular expression; on an image event that was about a tenth of the whole validation.
 *
 * It may only be stricter than the URL parser: every string it accepts is one `URL.canParse` accepts (after zod's
 * `trim`, which changes nothing here), and everything else is left to zod, which decides and explains.
 * `plain-web-url.test.ts` compares it with `URL.canParse` and `z.url()` on named edge cases and generated strings.
 */

const MAX_HOST_LENGTH = 253
const MAX_LABEL_LENGTH = 63

/**
 * True when `value` is `http://` or `https://` (lowercase), then a host name made of ASCII letters, digits and
 * inner hyphens in dot-separated labels (no empty label, no `--` so no `xn--` label to decode, the last label
 * starting with a letter so the parser never reads the host as an IPv4 number), no user, no port, and then
 * nothing or a path, query or fragment of printable ASCII without spaces. Such a string is always a valid URL;
 * `false` only means "not this simple shape" (IP addresses, ports, international names and every invalid URL
 * answer `false`).
 *
 * @example
 * ```ts
 * isPlainWebUrl('https://example.com/a.png?size=2') // true
 * isPlainWebUrl('https://127.0.0.1/') // false: valid, but left to the URL parser
 * isPlainWebUrl('not a url') // false
 * ```
 */
export function isPlainWebUrl(value: string): boolean {
  let index: number
  if (value.startsWith('https://')) index = 8
  else if (value.startsWith('http://')) index = 7
  else return false
  const length = value.length
  const hostStart = index
  let labelStart = index
  let previous = 46 /* . : a label may not start with a hyphen or a dot */
  let code = 0
  for (; index < length; index++) {
    code = value.charCodeAt(index)
    if (code === 47 /* / */ || code === 63 /* ? */ || code === 35 /* # */) break
    if (code === 46 /* . */) {
      if (previous === 46 || previous === 45 /* - */ || index - labelStart > MAX_LABEL_LENGTH) return false
      labelStart = index + 1
    } else if (code === 45 /* - */) {
      if (previous === 46 || previous === 45) return false
    } else if (!isAsciiLetterOrDigit(code)) {
      return false
    }
    previous = code
  }
  const hostEnd = index
  if (hostEnd === hostStart || hostEnd - hostStart > MAX_HOST_LENGTH) return false
  // The last label: not empty (no trailing dot), not ending with a hyphen, starting with a letter.
  if (previous === 46 || previous === 45 || hostEnd - labelStart > MAX_LABEL_LENGTH || !isAsciiLetter(value.charCodeAt(labelStart))) return false
  // The path, query and fragment: printable ASCII, no space (the parser fails on none of these characters).
  for (; index < length; index++) {
    code = value.charCodeAt(index)
    if (code < 0x21 || code > 0x7e) return false
  }
  return true
}

function isAsciiLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90)
}

function isAsciiLetterOrDigit(code: number): boolean {
  return isAsciiLetter(code) || (code >= 48 && code <= 57)
}
