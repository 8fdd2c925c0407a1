import { BourseError } from '../../src/core/errors.js';

/** The registry code a promise is rejected with; a fulfilled promise or another error fails the test. */
export async function codeOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BourseError) return error.code;
    throw error;
  }
  throw new Error('expected a rejection');
}
