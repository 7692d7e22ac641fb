import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { errorTypeNames, errorTypes } from '../../api/error-types.js'
import {
  AbortError,
  ApiError,
  apiErrorClasses,
  errorFrom,
  InvalidPayloadError,
  isApiError,
  NetworkError,
  ResourceNotFoundError,
  TimeoutError,
  UnknownError,
  UploadFileError,
} from './index.js'
import { errorFromResponseBody } from './error-from.js'

const official = createRequire(import.meta.url)('@botpress/client') as Record<string, any>

describe('API error classes', () => {
  it('has one class per wire error type, with the official code, description and name', () => {
    expect(Object.keys(apiErrorClasses)).toEqual(errorTypeNames)
    for (const type of errorTypeNames) {
      const error = new apiErrorClasses[type]('boom', undefined, 'err_1', { a: 1 })
      const theirs = new official[`${type}Error`]('boom', undefined, 'err_1', { a: 1 })
      expect(error).toBeInstanceOf(ApiError)
      expect(error.name).toBe(`${type}Error`)
      expect(error).toBeInstanceOf(apiErrorClasses[type])
      expect({ code: error.code, type: error.type, description: error.description }).toEqual({
        code: theirs.code,
        type: theirs.type,
        description: theirs.description,
      })
      expect(error.code).toBe(errorTypes[type].code)
      expect(error.toJSON()).toEqual(theirs.toJSON())
      expect(error.format()).toBe(theirs.format())
      expect(isApiError(error)).toBe(true)
    }
  })

  it('generates an err_ id when none is given', () => {
    expect(new ResourceNotFoundError('x').id).toMatch(/^err_\d{14}x[0-9A-F]{8}$/)
  })

  it('recognises errors of the official client with isApiError, and rejects other values', () => {
    expect(isApiError(new official.ResourceNotFoundError('x'))).toBe(true)
    expect(isApiError(new Error('x'))).toBe(false)
    expect(isApiError(null)).toBe(false)
    expect(isApiError({ isApiError: 'yes' })).toBe(false)
    expect(isApiError(new NetworkError('down'))).toBe(false)
    expect(isApiError(new TimeoutError(10))).toBe(false)
    expect(isApiError(new AbortError())).toBe(false)
  })

  it('gives client-side errors stable codes and names', () => {
    expect(new NetworkError('x').code).toBe('ERR_NETWORK')
    expect(new TimeoutError(5).code).toBe('ERR_TIMEOUT')
    expect(new TimeoutError(5).message).toBe('The request timed out after 5 ms')
    expect(new AbortError().code).toBe('ERR_ABORTED')
    expect(new UploadFileError('x').name).toBe('FileUploadError')
  })
})

describe('errorFrom follows the official parsing rules', () => {
  const cases: Array<[string, unknown]> = [
    ['a full body', { id: 'err_1', code: 404, type: 'ResourceNotFound', message: 'File not found', metadata: { k: 'v' } }],
    ['a body without metadata', { id: 'err_2', code: 400, type: 'InvalidPayload', message: 'key: expected string' }],
    ['a missing id', { code: 404, type: 'ResourceNotFound', message: 'File not found' }],
    ['an empty id', { id: '', code: 404, type: 'ResourceNotFound', message: 'File not found' }],
    ['an unknown type', { id: 'err_3', code: 418, type: 'Teapot', message: 'short and stout' }],
    ['a non-string message', { id: 'err_4', code: 400, type: 'InvalidPayload', message: 42 }],
    ['the docs shape', { type: 'ResourceNotFound', description: 'x', status: 404 }],
    ['a string', 'plain text failure'],
  ]
  for (const [label, body] of cases) {
    it(`maps ${label} like @botpress/client`, () => {
      const ours = errorFrom(body)
      const theirs = official.errorFrom(body)
      expect(ours).toBeInstanceOf(apiErrorClasses[theirs.type as keyof typeof apiErrorClasses])
      expect(ours.type).toBe(theirs.type)
      expect(ours.message).toBe(theirs.message)
      expect(ours.metadata).toEqual(theirs.metadata)
      if (label !== 'a missing id' && label !== 'an unknown type' && label !== 'the docs shape' && label !== 'a string' && label !== 'a non-string message') {
        expect(ours.id).toBe(theirs.id)
      }
    })
  }

  it('keeps an API error as it is and wraps other errors as UnknownError', () => {
    const original = new InvalidPayloadError('bad')
    expect(errorFrom(original)).toBe(original)
    const wrapped = errorFrom(new Error('socket hang up'))
    expect(wrapped).toBeInstanceOf(UnknownError)
    expect(wrapped.message).toBe('socket hang up')
    expect(wrapped.error?.message).toBe('socket hang up')
  })
})

describe('errorFromResponseBody', () => {
  it('parses a JSON error body into its class', () => {
    const error = errorFromResponseBody(404, JSON.stringify({ id: 'err_9', code: 404, type: 'ResourceNotFound', message: 'nope' }))
    expect(error).toBeInstanceOf(ResourceNotFoundError)
    expect(error.id).toBe('err_9')
  })

  it('maps an empty body to "Request failed with status code N"', () => {
    expect(errorFromResponseBody(502, '').message).toBe('Request failed with status code 502')
    expect(errorFromResponseBody(500, 'null').message).toBe('Request failed with status code 500')
  })

  it('maps a non-JSON body to UnknownError carrying the text', () => {
    const error = errorFromResponseBody(502, '<html>Bad Gateway</html>')
    expect(error).toBeInstanceOf(UnknownError)
    expect(error.message).toBe('<html>Bad Gateway</html>')
  })

  it('maps a JSON value that is not an object to UnknownError', () => {
    expect(errorFromResponseBody(500, '[1,2]').message).toBe('An invalid error occurred: [1,2]')
    expect(errorFromResponseBody(500, '"down"').message).toBe('down')
  })

  it('does not trust isApiError sent by the server', () => {
    const error = errorFromResponseBody(403, JSON.stringify({ isApiError: true, id: 'e', code: 403, type: 'Forbidden', message: 'no' }))
    expect(error).toBeInstanceOf(ApiError)
    expect(error.type).toBe('Forbidden')
  })
})
