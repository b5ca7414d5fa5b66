// Shared checks for the stores that publish a file through a temp file (node-fs, OPFS): a write paused half
// written and again just before it is published, with readers probing the target at both pauses.
import { expect } from 'vitest';
import { isLakeletError } from '../../src/errors.js';
import type { Storage } from '../../src/storage/storage.js';
import { firstDifference } from './contract.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** A pause point: `reached` resolves when the writer gets there; the writer waits until `resume()`. */
export interface Pause {
  reached: Promise<void>;
  resume(): void;
}

/** A pause point and the writer's side of it: `arrive()` marks it reached and waits for `resume()`. */
export function pause(): Pause & { arrive(): Promise<void> } {
  let arrived!: () => void;
  let resume!: () => void;
  const reached = new Promise<void>((r) => { arrived = r; });
  const resumed = new Promise<void>((r) => { resume = r; });
  return { reached, resume, arrive: () => (arrived(), resumed) };
}

/** The two pauses of one write: its temp file half written (`half`), and just before publishing it (`publish`). */
export interface WriteGate {
  half: Pause;
  publish: Pause;
}

/**
 * Starts `write` (which must stop at both pauses of `gate`), runs `atHalf` at the first pause, probes three
 * times at each pause and resumes; returns the write's result and the six probe answers in order.
 */
export async function probeDuringWrite<T>(gate: WriteGate, write: () => Promise<T>, probe: () => Promise<string>, atHalf?: () => Promise<void>): Promise<{ result: T; during: string[] }> {
  const pending = write();
  const finishedEarly = pending.then(() => {
    throw new Error('the write finished without stopping at its pauses');
  });
  const during: string[] = [];
  for (const [at, check] of [[gate.half, atHalf], [gate.publish, undefined]] as const) {
    await Promise.race([at.reached, finishedEarly]);
    await check?.();
    for (let i = 0; i < 3; i++) during.push(await probe());
    at.resume();
  }
  return { result: await pending, during };
}

/** What a reader of `path` sees while it is replaced: `old`, `new`, or `torn(<length>)`. */
export function replaceProbe(reader: Storage, path: string, oldBytes: Uint8Array, newBytes: Uint8Array): () => Promise<string> {
  return async () => {
    const got = await reader.read(path);
    return firstDifference(got, oldBytes) === -1 ? 'old' : firstDifference(got, newBytes) === -1 ? 'new' : `torn(${got.length})`;
  };
}

/** What a reader of `path` sees while it is created: `absent`, `full`, or `partial(<length>)`. */
export function createProbe(reader: Storage, path: string, bytes: Uint8Array): () => Promise<string> {
  return async () => {
    try {
      const got = await reader.read(path);
      return firstDifference(got, bytes) === -1 ? 'full' : `partial(${got.length})`;
    } catch (err) {
      if (!isLakeletError(err, 'NOT_FOUND')) throw err;
      return 'absent';
    }
  };
}

/**
 * Writes `p/a.parquet` twice, ten files at once and `.hoodie/1.commit` with one winning and one losing
 * `writeIfAbsent` (expecting those results); returns the tree (files and folders) that must be left.
 */
export async function writeEveryWay(s: Storage): Promise<string[]> {
  await s.write('p/a.parquet', enc('one'));
  await s.write('p/a.parquet', enc('two'));
  await Promise.all(Array.from({ length: 10 }, (_, i) => s.write(`p/f${i}`, enc(String(i)))));
  expect(await s.writeIfAbsent('.hoodie/1.commit', enc('c'))).toBe(true);
  expect(await s.writeIfAbsent('.hoodie/1.commit', enc('d'))).toBe(false);
  return ['.hoodie', '.hoodie/1.commit', 'p', 'p/a.parquet', ...Array.from({ length: 10 }, (_, i) => `p/f${i}`)];
}
