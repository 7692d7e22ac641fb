import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { int8Copy, registerInt8Copy } from './int8-copy.js'

const int8 = (copy: Buffer | undefined): number[] | undefined => (copy ? Array.from(new Int8Array(copy.buffer, copy.byteOffset, copy.byteLength)) : undefined)

describe('int8Copy', () => {
  it('scales each vector by its largest component, so small components keep their precision', () => {
    expect(int8(int8Copy(Float32Array.of(0.6, -0.8)))).toEqual([95, -127])
    // A 356-dimension-like vector whose components stay within ±0.1 still spans ±127.
    expect(int8(int8Copy(Float32Array.of(0.1, 0.05, -0.025)))).toEqual([127, 64, -32])
  })

  it('has no copy for a vector without direction', () => {
    expect(int8Copy(new Float32Array(4))).toBeUndefined()
    expect(int8Copy(Float32Array.of(Number.NaN, 1))).toBeUndefined()
    expect(int8Copy(Float32Array.of(Number.POSITIVE_INFINITY, 1))).toBeUndefined()
  })

  it('is botshelf_int8 in SQL: NULL for NULL, empty, odd-length or all-zero blobs', () => {
    const db = new Database(':memory:')
    registerInt8Copy(db)
    const sql = db.prepare('SELECT botshelf_int8(?)').pluck()
    const floats = (values: number[]) => Buffer.from(Float32Array.from(values).buffer)
    expect(int8(sql.get(floats([0.6, -0.8])) as Buffer)).toEqual([95, -127])
    for (const bad of [null, Buffer.alloc(0), Buffer.from([1, 2, 3]), floats([0, 0])]) expect(sql.get(bad)).toBeNull()
    db.close()
  })
})
