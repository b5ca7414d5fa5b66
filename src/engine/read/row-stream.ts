// Rows served one at a time from batches: a read's for-await over rows without an async generator step per row.
// An async generator awaits every value it yields and each `yield*` re-wraps it, a few microtasks per row per
// layer, the largest per-row cost of a big scan after decoding; here a row of the current batch is one resolved
// promise. Calls are served in order, as an async generator serves them.

const DONE = { value: undefined, done: true } as const;

/** The rows of `batches` in order, as an async generator; `return()` (a `break`) and `throw()` close `batches`. */
export function rowsOf<T>(batches: AsyncGenerator<readonly T[], unknown, undefined>): AsyncGenerator<T, undefined, undefined> {
  let batch: readonly T[] = [];
  let at = 0;
  let finished = false;
  let pending: Promise<unknown> | undefined; // a call waiting for a batch: later calls queue behind it

  const step = async (): Promise<IteratorResult<T, undefined>> => {
    while (at >= batch.length) {
      if (finished) return DONE;
      let next: IteratorResult<readonly T[], unknown>;
      try {
        next = await batches.next();
      } catch (err) {
        finished = true; // like an async generator, one that threw is done
        throw err;
      }
      if (next.done === true) {
        finished = true;
        return DONE;
      }
      batch = next.value;
      at = 0;
    }
    return { value: batch[at++] as T, done: false };
  };
  const close = async (): Promise<void> => {
    const open = !finished;
    finished = true;
    batch = [];
    at = 0;
    if (open) await batches.return(undefined);
  };
  const inOrder = <R>(run: () => Promise<R>): Promise<R> => {
    const p = pending === undefined ? run() : pending.then(run, run);
    pending = p;
    const clear = (): void => {
      if (pending === p) pending = undefined;
    };
    p.then(clear, clear);
    return p;
  };

  const stream: AsyncGenerator<T, undefined, undefined> = {
    next() {
      if (pending === undefined && at < batch.length) return Promise.resolve({ value: batch[at++] as T, done: false });
      return inOrder(step);
    },
    return(value) {
      return inOrder(async () => {
        await close();
        return { value: await value, done: true };
      });
    },
    throw(err: unknown) {
      return inOrder(async () => {
        await close();
        throw err;
      });
    },
    [Symbol.asyncIterator]() {
      return stream;
    },
  };
  // `await using` on the stream, where the runtime has the symbol: closes it
  const asyncDispose = (Symbol as { asyncDispose?: symbol }).asyncDispose;
  if (asyncDispose !== undefined) Object.defineProperty(stream, asyncDispose, { value: () => stream.return(undefined).then(() => undefined) });
  return stream;
}
