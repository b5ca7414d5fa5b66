// Buffered, backpressure-aware text output for the `lakelet` CLI: batches small writes, waits for
// `drain` when the stream asks for it, and turns a closed pipe (EPIPE, e.g. `| head`) into a quiet stop.

/** The part of a Node Writable (process.stdout, a file stream, a test double) the CLI uses. */
export interface CliOutput {
  /** Write text; `false` asks the writer to wait for `drain` (when the stream has `once`). */
  write(chunk: string): boolean | void;
  /** Whether the stream is a terminal (unused by tests). */
  isTTY?: boolean;
  on?(event: string, listener: (...args: unknown[]) => void): unknown;
  once?(event: string, listener: (...args: unknown[]) => void): unknown;
  removeListener?(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** Thrown by {@link OutputSink} once the reader of the output has gone away. */
export class OutputClosed extends Error {
  constructor() {
    super('output closed');
    this.name = 'OutputClosed';
  }
}

interface StreamState {
  closed: boolean;
}

// One error listener per stream, kept for the stream's lifetime: an EPIPE can be reported after the last write.
const states = new WeakMap<object, StreamState>();

function isEpipe(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ERR_STREAM_WRITE_AFTER_END';
}

function stateOf(out: CliOutput): StreamState {
  let state = states.get(out);
  if (!state) {
    const s: StreamState = { closed: false };
    state = s;
    states.set(out, s);
    // A closed pipe ends the output quietly; other stream errors also stop it (there is nowhere to report them).
    out.on?.('error', () => {
      s.closed = true;
    });
  }
  return state;
}

/** Batches text into ~64 KiB writes; {@link OutputSink.flush} honours backpressure. */
export class OutputSink {
  private chunks: string[] = [];
  private size = 0;
  private readonly state: StreamState;

  constructor(private readonly out: CliOutput, private readonly batchBytes = 64 * 1024) {
    this.state = stateOf(out);
  }

  /** True once the stream reported EPIPE (or another error): stop producing output. */
  get closed(): boolean {
    return this.state.closed;
  }

  /** True when enough text is buffered that the caller should `await flush()`. */
  get full(): boolean {
    return this.size >= this.batchBytes;
  }

  /** Buffer text. */
  push(text: string): void {
    this.chunks.push(text);
    this.size += text.length;
  }

  /** Write the buffered text and wait for `drain` when the stream is saturated. Closed stream → {@link OutputClosed}. */
  async flush(): Promise<void> {
    if (this.state.closed) throw new OutputClosed();
    if (this.chunks.length === 0) return;
    const text = this.chunks.length === 1 ? (this.chunks[0] as string) : this.chunks.join('');
    this.chunks = [];
    this.size = 0;
    let ok: boolean | void;
    try {
      ok = this.out.write(text);
    } catch (err) {
      if (isEpipe(err)) {
        this.state.closed = true;
        throw new OutputClosed();
      }
      throw err;
    }
    if (ok === false && this.out.once) await this.drain();
    if (this.state.closed) throw new OutputClosed();
  }

  private drain(): Promise<void> {
    const out = this.out;
    return new Promise((resolve) => {
      const done = () => {
        out.removeListener?.('drain', done);
        out.removeListener?.('error', done);
        out.removeListener?.('close', done);
        resolve();
      };
      out.once?.('drain', done);
      out.once?.('error', done);
      out.once?.('close', done);
    });
  }
}

/** Print `text` to `out`, wait until it is written, and give exit code 0 (a command's normal ending). */
export async function printText(out: CliOutput, text: string): Promise<number> {
  const sink = new OutputSink(out);
  sink.push(text);
  await sink.flush();
  return 0;
}

/** `1 file`, `3 files` (or `many` for an irregular plural): the count and noun of the commands' summary lines. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
