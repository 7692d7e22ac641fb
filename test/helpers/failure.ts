/**
 * Runs a call that must fail and returns what it threw (the test then asserts on it); throws if the call succeeded.
 *
 * @example
 * ```ts
 * const error = await failure(() => client.getFile({ id: 'missing' }))
 * expect(error).toBeInstanceOf(ResourceNotFoundError)
 * ```
 */
export async function failure(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call()
  } catch (error) {
    return error
  }
  throw new Error('expected the call to fail')
}
