// The CLI's write progress (one summary line, or a redrawn bar on a TTY) and its input parsers (JSON numbers kept
// exact, CSV quoting, --keys splitting), in-process.
import { describe, expect, test } from 'vitest';
import { main } from '../../src/node/cli/cli.js';
import { parseCsv as parseCsvInput } from '../../src/node/cli/input-csv.js';
import { JsonNumber, parseJson } from '../../src/node/cli/input-json.js';
import { parseJsonLines } from '../../src/node/cli/input-jsonl.js';
import { progressReporter } from '../../src/node/cli/progress.js';
import { splitKeys } from '../../src/node/cli/write.js';
import { parseRecordSchema } from '../../src/schema/table-schema.js';
import { runCli } from './cli-helpers.js';
import { scratchFolder } from './cli-scratch.js';
import { createTripsIn, TRIPS } from './cli-write-helpers.js';

const { fresh, file } = scratchFolder('lakelet-cli-progress-');
const createTrips = (extra: string[] = []): Promise<string> => createTripsIn(fresh, extra);

describe('progress', () => {
  async function runWithStderr(stderr: { isTTY?: boolean; columns?: number }, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await main(argv, {
      stdout: { write: (s: string) => { out += s; return true; } },
      stderr: { ...stderr, write: (s: string) => { err += s; return true; } },
    });
    return { code, out, err };
  }

  test('a non-TTY stderr gets one summary line; stdout only the result', async () => {
    const dir = await createTrips();
    const r = await runWithStderr({ isTTY: false }, 'upsert', dir, '--input', file('t.jsonl', TRIPS));
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^upsert: 3 records prepared, 3 looked up, 2 files written, committed in \d+\.\d\ds\n$/);
    expect(r.out.split('\n')).toHaveLength(2);
    expect(r.out).not.toMatch(/prepared|\r/);
  });

  test('a TTY stderr gets a redrawn bar, then the summary line; --quiet prints nothing', async () => {
    const dir = await createTrips();
    const r = await runWithStderr({ isTTY: true, columns: 200 }, 'upsert', dir, '--input', file('t.jsonl', TRIPS));
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/\r\x1b\[2Kupsert \[[#-]{24}\] index 0\/3 records \d/);
    expect(r.err).toMatch(/\r\x1b\[2Kupsert \[#{24}\] commit 1\/1 /);
    expect(r.err).toMatch(/\r\x1b\[2Kupsert: 3 records prepared, 3 looked up, 2 files written, committed in \d+\.\d\ds\n$/);
    expect(r.out).not.toMatch(/[\r\x1b#]/);
    const quiet = await runWithStderr({ isTTY: true }, 'upsert', dir, '--input', file('t.jsonl', TRIPS), '-q');
    expect(quiet).toMatchObject({ code: 0, err: '' });
  });

  test('a failed write on a TTY clears the bar before the error line', async () => {
    const dir = await createTrips();
    expect((await runCli('upsert', dir, '--input', file('t.jsonl', TRIPS))).code).toBe(0);
    const r = await runWithStderr({ isTTY: true }, 'upsert', dir, '--input', file('bad.jsonl', '{"id": 1, "ts": 1, "city": "sf", "fare": "x"}\n'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/(^|\r\x1b\[2K)lakelet: row 0: field 'fare'[^\n]*\n$/);
  });

  test('the bar is throttled and cut to the terminal width', () => {
    let err = '';
    let t = 0;
    const p = progressReporter({ isTTY: true, columns: 30, write: (s: string) => { err += s; return true; } } as never, { label: 'upsert', now: () => t, redrawMs: 100 });
    p.update({ phase: 'index', done: 0, total: 10 });
    t = 50;
    p.update({ phase: 'index', done: 5, total: 10 }); // within 100 ms of the last redraw: skipped
    t = 200;
    p.update({ phase: 'index', done: 6, total: 10 });
    p.update({ phase: 'index', done: 10, total: 10 }); // completion is always drawn
    const draws = err.split('\r\x1b[2K').filter(Boolean);
    expect(draws).toHaveLength(3);
    for (const d of draws) expect(d.length).toBeLessThanOrEqual(29);
    p.finish();
    expect(err.endsWith('\r\x1b[2Kupsert: 10 looked up in 0.20s\n')).toBe(true);
  });
});

describe('input parsing', () => {
  test('JSON numbers stay exact; big integers become bigint; decimals keep their digits', () => {
    const parsed = parseJson('{"a": 12345678901234567890, "b": 1.10, "__proto__": {"x": 1}}') as Record<string, unknown>;
    expect(parsed.a).toBeInstanceOf(JsonNumber);
    expect(Object.prototype.hasOwnProperty.call(parsed, '__proto__')).toBe(true);
    const schema = parseRecordSchema({ type: 'record', name: 'r', fields: [{ name: 'l', type: 'long' }, { name: 'd', type: { type: 'bytes', logicalType: 'decimal', precision: 30, scale: 2 } }, { name: 'b', type: 'bytes' }] }, 'test');
    const typed = parseJsonLines('{"l": 9223372036854775807, "d": 123456789012345678901.25, "b": "AAE="}\n', 'x.jsonl', schema).rows[0];
    expect(typed).toEqual({ l: 9223372036854775807n, d: '123456789012345678901.25', b: new Uint8Array([0, 1]) });
    const plain = parseJsonLines('{"n": 9007199254740993, "s": 9007199254740991, "f": 0.5, "e": -1e3, "nested": {"m": [18446744073709551616]}}', 'x.jsonl').rows[0];
    expect(plain).toEqual({ n: 9007199254740993n, s: 9007199254740991, f: 0.5, e: -1000, nested: { m: [18446744073709551616n] } });
    for (const bad of ['{"a": 01}', '{"a": 1,}', '{"a": "\\u00"}', '{"a": tru}', '{"a": 1} x', '{"a": "line\nbreak"}']) {
      expect(() => parseJson(bad), bad).toThrow(SyntaxError);
    }
  });

  test('CSV: quotes, doubled quotes, CRLF, BOM, blank lines; quote errors', () => {
    const { rows, lines } = parseCsvInput('\ufeffa,b\r\n"1,2","say ""hi"""\r\n\r\n3,\n', 'x.csv');
    expect(rows).toEqual([{ a: '1,2', b: 'say "hi"' }, { a: '3', b: null }]); // "1,2" is no integer: the column stays text
    expect(lines).toEqual([2, 4]);
    expect(() => parseCsvInput('a\nx"y\n', 'x.csv')).toThrow(/x\.csv line 2: a quote inside an unquoted field/);
    expect(() => parseCsvInput('a\n"x"y\n', 'x.csv')).toThrow(/line 2: unexpected "y" after a quoted field/);
    expect(() => parseCsvInput('a,a\n1,2\n', 'x.csv')).toThrow(/names column "a" twice/);
    expect(() => parseCsvInput('', 'x.csv')).toThrow(/needs a header row/);
    expect(parseCsvInput('_hoodie_record_key,a\nk,1\n', 'x.csv').rows).toEqual([{ a: 1 }]);
  });

  test('--keys splitting: commas for one key field, before "<first field>:" for several', () => {
    expect(splitKeys(['1,2', ' 3 '], ['id'])).toEqual(['1', '2', '3']);
    expect(splitKeys(['org:a,id:1,org:b,id:2', 'org:c,id:x,y'], ['org', 'id'])).toEqual(['org:a,id:1', 'org:b,id:2', 'org:c,id:x,y']);
    expect(() => splitKeys(['1,,2'], ['id'])).toThrow(/empty key/);
  });
});
