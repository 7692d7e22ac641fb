import { describe, expect, it } from 'vitest'
import { localPathOf } from './files-get.js'

describe('localPathOf', () => {
  it('gives the path after the prefix', () => {
    expect(localPathOf('docs/', 'docs/a/b.md')).toEqual({ path: 'a/b.md' })
    expect(localPathOf('', 'top.txt')).toEqual({ path: 'top.txt' })
  })

  it('refuses keys that would leave the destination or are not relative paths', () => {
    expect(localPathOf('', '../etc/passwd')).toEqual({ refused: 'it would leave the destination folder' })
    expect(localPathOf('docs/', 'docs/a/../../x')).toEqual({ refused: 'it would leave the destination folder' })
    expect(localPathOf('', '/abs/path')).toEqual({ refused: 'it has an empty path segment' })
    expect(localPathOf('', 'a//b')).toEqual({ refused: 'it has an empty path segment' })
    expect(localPathOf('', 'C:/x')).toEqual({ refused: 'it is not a portable relative path' })
    expect(localPathOf('', 'a\\b')).toEqual({ refused: 'it is not a portable relative path' })
    expect(localPathOf('docs/', 'docs/')).toEqual({ refused: 'it has an empty path segment' })
  })
})
