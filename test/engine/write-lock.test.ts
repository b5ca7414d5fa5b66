// withTableWriteLock where there are no Web Locks (Node): the function simply runs, results and errors pass
// through; and the lock name comes from the storage label.
import { describe, expect, it } from 'vitest';
import { tableWriteLockName, withTableWriteLock } from '../../src/engine/commit/write-lock.js';
import { memoryStorage } from '../../src/storage/memory.js';

describe('withTableWriteLock without navigator.locks', () => {
  it('runs the function and passes its result and errors through', async () => {
    expect((globalThis as { navigator?: { locks?: unknown } }).navigator?.locks).toBeUndefined();
    const s = memoryStorage({ label: 'mem:trips' });
    expect(await withTableWriteLock(s, async () => 42)).toBe(42);
    await expect(withTableWriteLock(s, async () => { throw new Error('boom'); })).rejects.toThrow('boom');
  });
  it('names the lock after the storage label', () => {
    expect(tableWriteLockName(memoryStorage({ label: 'mem:trips' }))).toBe('lakelet:write:mem:trips');
  });
});
