// Fixture access from browser tests: the Vite dev server serves ../shared through its /@fs/ route.
import { inject } from 'vitest';

/** Fetch a file under the fixtures folder as bytes. */
export async function fetchFixture(relativePath: string): Promise<Uint8Array> {
  const res = await fetch(`/@fs${inject('FIXTURES_DIR')}/${relativePath}`);
  if (!res.ok) throw new Error(`fixture ${relativePath}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}
