import { isIPv4, isIPv6 } from 'node:net'

/**
 * The bucket key of a client address: an IPv4 address as is (also when written IPv4-mapped, `::ffff:1.2.3.4`),
 * an IPv6 address by its first 64 bits, since one host usually holds a whole /64 and could otherwise take a
 * fresh bucket per request. Anything else (a Unix socket path, an unparsable value) is kept as it is.
 *
 * @example
 * ```ts
 * addressKey('203.0.113.7') // '203.0.113.7'
 * addressKey('::ffff:203.0.113.7') // '203.0.113.7'
 * addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd') // '2001:db8:1:2::/64'
 * ```
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return mapped[1]!
  if (isIPv4(address)) return address
  const withoutZone = address.split('%')[0]!
  if (!isIPv6(withoutZone)) return address
  return `${expandIPv6(withoutZone).slice(0, 4).join(':')}::/64`
}

/** The eight groups of an IPv6 address, without leading zeros (`::1` → `['0', ..., '1']`). */
function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('::') as [string, string | undefined]
  const groups = (part: string): string[] => (part === '' ? [] : part.split(':'))
  const left = groups(head)
  const right = tail === undefined ? [] : groups(tail)
  // An embedded IPv4 tail (`::1.2.3.4`) stands for the last two groups.
  const last = right.length > 0 ? right : left
  const lastGroup = last[last.length - 1]
  if (lastGroup !== undefined && lastGroup.includes('.')) {
    const [a, b, c, d] = lastGroup.split('.').map(Number) as [number, number, number, number]
    last.splice(last.length - 1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16))
  }
  const missing = 8 - left.length - right.length
  const all = tail === undefined ? left : [...left, ...Array.from({ length: missing }, () => '0'), ...right]
  return all.map((group) => Number.parseInt(group, 16).toString(16))
}
