import { describe, expect, it } from 'vitest'
import { addressKey } from './client-address.js'

describe('addressKey', () => {
  it('keys IPv4 as is, IPv4-mapped IPv6 as the IPv4 address, and IPv6 by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7')
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(addressKey('::FFFF:127.0.0.1')).toBe('127.0.0.1')
    expect(addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(addressKey('::1')).toBe('0:0:0:0::/64')
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(addressKey('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64')
  })

  it('puts two hosts of one /64 in one bucket and two /64s in two', () => {
    expect(addressKey('2001:db8:1:2::a')).toBe(addressKey('2001:db8:1:2:ffff::b'))
    expect(addressKey('2001:db8:1:2::a')).not.toBe(addressKey('2001:db8:1:3::a'))
  })

  it('keeps what is not an IP address as it is', () => {
    expect(addressKey('/tmp/botshelf.sock')).toBe('/tmp/botshelf.sock')
  })
})
