// Byte-exact snapshots of a whole store: every path (temp files included) with its bytes, to assert that a
// refused operation left the file tree untouched.
import { expect } from 'vitest';
import type { Storage } from '../../src/index.js';

/** Every file of `storage` (recursive, temp files included) mapped to its bytes. */
export async function treeSnapshot(storage: Storage): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for (const f of await storage.list('', { recursive: true, includeTemporary: true })) out.set(f.path, await storage.read(f.path));
  return out;
}

/** Assert that `storage` holds exactly the paths and bytes of `before`. */
export async function expectTreeUnchanged(storage: Storage, before: Map<string, Uint8Array>): Promise<void> {
  const after = await treeSnapshot(storage);
  expect([...after.keys()]).toEqual([...before.keys()]);
  for (const [path, bytes] of before) {
    const now = after.get(path);
    if (!now || now.length !== bytes.length || now.some((b, i) => b !== bytes[i])) expect.fail(`${path} changed`);
  }
}
