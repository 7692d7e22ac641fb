import { describe, expect, it } from 'vitest'
import type { FileRecord } from '../store/index.js'
import { defaultUrlLifetimes } from './content-urls.js'
import type { FileViewContext } from './file-view.js'
import { WireFileMemo } from './wire-file-memo.js'

const record = {
  id: 'file_01',
  botId: 'bot_1',
  key: 'a.txt',
  version: 1,
  accessPolicies: [],
  blobId: 'blob_1',
  size: 5,
  contentType: 'text/plain',
  tags: { kind: 'memo' },
  metadata: {},
  createdAt: '2026-11-24T12:00:00.000Z',
  updatedAt: '2026-11-24T12:00:00.000Z',
  index: false,
  status: 'upload_completed',
  failedStatusReason: null,
  expiresAt: null,
  owner: { type: 'bot' },
  indexingStack: null,
} as unknown as FileRecord

const view = (at: string, base = 'http://127.0.0.1:3000'): FileViewContext => ({ signingKey: Buffer.alloc(32, 7), base, now: new Date(at), lifetimes: defaultUrlLifetimes })

describe('WireFileMemo', () => {
  it('hands out the same frozen answer for a frozen record within one second and one base', () => {
    const memo = new WireFileMemo()
    const frozen = Object.freeze({ ...record, tags: Object.freeze({ ...record.tags }) })
    const first = memo.answer(frozen, view('2026-11-24T12:00:00.100Z'))
    const again = memo.answer(frozen, view('2026-11-24T12:00:00.900Z'))
    expect(again).toBe(first)
    expect(Object.isFrozen(first) && Object.isFrozen(first.file)).toBe(true)
    expect(first.file).toMatchObject({ id: 'file_01', key: 'a.txt', tags: { kind: 'memo' } })
  })

  it('makes a new answer in the next second (its url expires a second later) and for another base', () => {
    const memo = new WireFileMemo()
    const frozen = Object.freeze({ ...record })
    const first = memo.answer(frozen, view('2026-11-24T12:00:00.900Z'))
    const next = memo.answer(frozen, view('2026-11-24T12:00:01.000Z'))
    expect(next).not.toBe(first)
    expect(next.file.url).not.toBe(first.file.url)
    const elsewhere = memo.answer(frozen, view('2026-11-24T12:00:01.000Z', 'https://files.example.com'))
    expect(elsewhere.file.url.startsWith('https://files.example.com/')).toBe(true)
  })

  it('answers anew for a record that is not frozen (it may change under the memo)', () => {
    const memo = new WireFileMemo()
    const mutable = { ...record }
    const first = memo.answer(mutable, view('2026-11-24T12:00:00.100Z'))
    mutable.key = 'b.txt'
    const second = memo.answer(mutable, view('2026-11-24T12:00:00.200Z'))
    expect(second).not.toBe(first)
    expect(second.file.key).toBe('b.txt')
    expect(Object.isFrozen(first)).toBe(false)
  })
})
