// A dedicated module worker for opfs.browser.test.ts: runs Storage operations on an OPFS folder from inside
// a worker (where writes go through sync access handles) and posts the results back to the page. A race
// starts on a message barrier: the worker reports `ready`, then waits for the page's `go`.
import { isLakeletError } from '../../src/errors.js';
import { opfsStorage } from '../../src/storage/opfs.js';

/** What the page asks the worker to do. */
export type WorkerRequest =
  | { kind: 'basics'; folder: string; size: number }
  | { kind: 'race'; folder: string; path: string; callers: number }
  | { kind: 'go' };

/** What the worker answers. */
export interface WorkerReply {
  ok: boolean;
  /** A race is set up and waits for `go` (the final reply follows). */
  ready?: boolean;
  error?: string;
  writeMethod?: string;
  syncHandles?: boolean;
  wins?: number;
  checks?: Record<string, unknown>;
}

function pattern(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + seed) & 0xff;
  return out;
}

async function basics(folder: string, size: number): Promise<WorkerReply> {
  const s = opfsStorage(folder);
  const big = pattern(size, 5);
  await s.write('data/big.bin', big);
  await s.write('data/small.txt', new TextEncoder().encode('from the worker'));
  await s.write('data/small.txt', new TextEncoder().encode('from the worker, again'));
  const back = await s.read('data/big.bin');
  const range = await s.read('data/big.bin', { start: 1000, end: 1010 });
  const firstCreate = await s.writeIfAbsent('.hoodie/1.commit', new TextEncoder().encode('one'));
  const secondCreate = await s.writeIfAbsent('.hoodie/1.commit', new TextEncoder().encode('two'));
  await s.write('gone', new Uint8Array([1]));
  await s.delete('gone');
  await s.delete('gone');
  let missing = '';
  try {
    await s.head('gone');
  } catch (err) {
    missing = isLakeletError(err) ? `${err.code}:${String(err.context.path)}` : String(err);
  }
  return {
    ok: true,
    writeMethod: s.writeMethod,
    syncHandles: typeof (FileSystemFileHandle.prototype as { createSyncAccessHandle?: unknown }).createSyncAccessHandle === 'function',
    checks: {
      roundTrip: back.length === big.length && back.every((b, i) => b === big[i]),
      range: Array.from(range).join(',') === Array.from(big.subarray(1000, 1010)).join(','),
      size: (await s.head('data/big.bin')).size,
      list: (await s.list('', { recursive: true })).map((i) => i.path),
      top: (await s.list('')).map((i) => `${i.kind}:${i.path}`),
      creates: [firstCreate, secondCreate],
      missing,
    },
  };
}

let go: (() => void) | undefined;
const post = (reply: WorkerReply) => (self as unknown as { postMessage(message: unknown): void }).postMessage(reply);

async function race(folder: string, path: string, callers: number): Promise<WorkerReply> {
  const s = opfsStorage(folder);
  await s.list(''); // the folder handles are resolved before the barrier
  const started = new Promise<void>((resolve) => { go = resolve; });
  post({ ok: true, ready: true });
  await started;
  const results = await Promise.all(Array.from({ length: callers }, (_, i) => s.writeIfAbsent(path, new TextEncoder().encode(`worker-${i}`))));
  return { ok: true, wins: results.filter(Boolean).length };
}

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const req = event.data;
  if (req.kind === 'go') {
    go?.();
    return;
  }
  let reply: WorkerReply;
  try {
    reply = req.kind === 'basics' ? await basics(req.folder, req.size) : await race(req.folder, req.path, req.callers);
  } catch (err) {
    reply = { ok: false, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
  post(reply);
};
