// rowsOf: rows of batches served as an async generator would serve them — in order across empty and uneven
// batches, concurrent next() calls answered in call order, break/return/throw closing the source, a source error
// given once and the stream done after it.
import { describe, expect, test } from 'vitest';
import { rowsOf } from '../../src/engine/read/row-stream.js';

/** A source of batches that records whether its `finally` ran; `failAt` makes the n-th next() throw. */
function source(batches: number[][], failAt?: number) {
  const state = { closed: false, pulls: 0 };
  async function* gen(): AsyncGenerator<number[], undefined, undefined> {
    try {
      for (const b of batches) {
        await Promise.resolve();
        if (++state.pulls === failAt) throw new Error('disk gone');
        yield b;
      }
    } finally {
      state.closed = true;
    }
  }
  return { stream: rowsOf(gen()), state };
}

describe('rowsOf', () => {
  test('yields every row in order across empty and uneven batches, then stays done', async () => {
    const { stream, state } = source([[1, 2], [], [3], [4, 5, 6], []]);
    const seen: number[] = [];
    for await (const r of stream) seen.push(r);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    expect(state.closed).toBe(true);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  test('concurrent next() calls are answered in call order, as an async generator answers them', async () => {
    const { stream } = source([[1], [2, 3], [], [4]]);
    const results = await Promise.all([stream.next(), stream.next(), stream.next(), stream.next(), stream.next()]);
    expect(results).toEqual([
      { value: 1, done: false }, { value: 2, done: false }, { value: 3, done: false }, { value: 4, done: false }, { value: undefined, done: true },
    ]);
  });

  test('break closes the source; later next() calls are done', async () => {
    const { stream, state } = source([[1, 2, 3], [4, 5]]);
    for await (const r of stream) if (r === 2) break;
    expect(state.closed).toBe(true);
    expect(state.pulls).toBe(1);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  test('a source error reaches the caller once, after the rows before it; the stream is done afterwards', async () => {
    const { stream, state } = source([[1, 2], [3], [4]], 2);
    const seen: number[] = [];
    await expect((async () => {
      for await (const r of stream) seen.push(r);
    })()).rejects.toThrow('disk gone');
    expect(seen).toEqual([1, 2]);
    expect(state.closed).toBe(true);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  test('throw() closes the source and rejects with the given error; return() before the first row closes it too', async () => {
    const a = source([[1, 2], [3]]);
    expect(await a.stream.next()).toEqual({ value: 1, done: false });
    await expect(a.stream.throw(new Error('stop'))).rejects.toThrow('stop');
    expect(a.state.closed).toBe(true);
    expect(await a.stream.next()).toEqual({ value: undefined, done: true });
    const b = source([[1]]);
    expect(await b.stream.return(undefined)).toEqual({ value: undefined, done: true });
    expect(b.state.pulls).toBe(0);
    expect(await b.stream.next()).toEqual({ value: undefined, done: true });
  });

  test('where the runtime has Symbol.asyncDispose, disposing the stream closes the source', async () => {
    const asyncDispose = (Symbol as { asyncDispose?: symbol }).asyncDispose;
    if (asyncDispose === undefined) return;
    const { stream, state } = source([[1, 2], [3]]);
    expect(await stream.next()).toEqual({ value: 1, done: false });
    await (stream as unknown as Record<symbol, () => Promise<void>>)[asyncDispose]?.();
    expect(state.closed).toBe(true);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });
});
