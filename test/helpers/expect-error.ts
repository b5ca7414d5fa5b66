// Test helpers: the LakeletError a call fails with (and a test failure when it does not fail).
import { expect } from 'vitest';
import { LakeletError } from '../../src/index.js';

/** The LakeletError `p` rejects with; fails the test when `p` resolves or rejects with anything else. */
export async function failure(p: Promise<unknown>): Promise<LakeletError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(LakeletError);
    return err as LakeletError;
  }
  throw new Error('expected a LakeletError, the call succeeded');
}

/** The LakeletError `fn` throws; fails the test when it returns or throws anything else. */
export function thrown(fn: () => unknown): LakeletError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(LakeletError);
    return err as LakeletError;
  }
  throw new Error('expected a LakeletError');
}
