// Streaming rows out of a CLI command (`query`, `changes`): the first item is resolved before any output, so a
// header never precedes an error; then every item is written through the row writer, flushing every thousand
// rows or when the sink is full, and the source is closed however the output ends.
import type { RowWriter } from './format.js';
import type { OutputSink } from './output.js';

/** Rows between flushes at most (the sink also flushes every ~64 KiB). */
const FLUSH_ROWS = 1000;

/**
 * Write every item of `items` as a row: `makeWriter` is called once the first item (or the end) is known,
 * `encode` turns an item into the writer's row. Errors of the first `next()` reach the caller before any output.
 */
export async function writeRowStream<T>(items: AsyncGenerator<T>, sink: OutputSink, makeWriter: () => RowWriter, encode: (item: T) => Record<string, unknown>): Promise<void> {
  const first = await items.next();
  const writer = makeWriter();
  let pending = 0;
  try {
    if (!first.done) {
      writer.row(encode(first.value));
      for await (const item of items) {
        writer.row(encode(item));
        if (++pending >= FLUSH_ROWS || sink.full) {
          pending = 0;
          await sink.flush();
        }
      }
    }
    writer.end();
    await sink.flush();
  } finally {
    await items.return(undefined);
  }
}
