// The CLI's table services in-process (`lakelet compact|clean|archive|savepoint|restore|rollback`) on
// merge-on-read tables in temp dirs, checked against a model of the rows and through query and inspect.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { jsonLines, runCli, runCliOk, type CliRun } from './cli-helpers.js';

const scratch = mkdtempSync(join(tmpdir(), 'lakelet-cli-services-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => void vi.useRealTimers());
let counter = 0;
const fresh = (name: string) => join(scratch, `${name}-${++counter}`);

type Row = { id: number; v: string; ts: number };
/** Batch n: its ids, written with v = `b<n>` and ts = n; city follows the id, so keys never move. */
const BATCHES: Record<number, number[]> = { 1: [1, 2, 3, 4], 2: [3, 4, 5], 3: [1, 5, 6], 4: [2, 6, 7] };

/** The rows after writing `batches` in order. */
function model(...batches: number[]): Row[] {
  const m = new Map<number, Row>();
  for (const b of batches) for (const id of BATCHES[b] ?? []) m.set(id, { id, v: `b${b}`, ts: b });
  return [...m.values()].sort((a, b) => a.id - b.id);
}

const ok = runCliOk;

/** Run the CLI and expect exit 2, no stdout and one `lakelet: …` line on stderr matching `message`. */
async function fails(argv: string[], message: RegExp | string): Promise<CliRun> {
  const r = await runCli(...argv);
  expect(r.code, argv.join(' ')).toBe(2);
  expect(r.out).toBe('');
  expect(r.err).toMatch(/^lakelet: [^\n]+\n$/);
  if (typeof message === 'string') expect(r.err).toContain(message);
  else expect(r.err).toMatch(message);
  return r;
}

async function createTable(type = 'mor'): Promise<string> {
  const dir = fresh(type);
  await ok('create', dir, '--name', 'trips', '--type', type, '--record-key', 'id', '--ordering-field', 'ts', '--partition-by', 'city');
  return dir;
}

/** `lakelet upsert` batch n; returns its instant. */
async function upsert(dir: string, n: number): Promise<string> {
  const file = join(scratch, `batch-${n}-${++counter}.jsonl`);
  writeFileSync(file, (BATCHES[n] ?? []).map((id) => JSON.stringify({ id, v: `b${n}`, ts: n, city: id % 2 ? 'sf' : 'ny' })).join('\n') + '\n');
  return (JSON.parse(await ok('upsert', dir, '--input', file, '-q', '--json')) as { instant: string }).instant;
}

/** `lakelet compact`; returns the compaction instant. */
async function compact(dir: string): Promise<string> {
  const out = await ok('compact', dir);
  const m = /^(\d{17}) compaction: /.exec(out);
  expect(m, out).not.toBeNull();
  return m?.[1] ?? '';
}

/** Rows of `lakelet query` (id, v, ts), sorted by id. */
async function rowsOf(dir: string, ...extra: string[]): Promise<Row[]> {
  return (jsonLines(await ok('query', dir, '--columns', 'id,v,ts', ...extra)) as Row[]).sort((a, b) => a.id - b.id);
}

interface Report {
  timeline: { requestedTime: string; action: string; state: string }[];
  pending: { requestedTime: string; action: string; state: string }[];
  savepoints: { instant: string; savepointedBy: string | null; comments: string | null }[];
  oldestReadableInstant: { instant: string; clean: string } | null;
  totals: { logFiles: number; baseFiles: number };
}
const inspect = async (dir: string): Promise<Report> => JSON.parse(await ok('inspect', dir, '--json')) as Report;

/** Data files (base and log files) of the table, relative to it. */
function dataFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.hoodie') continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.parquet') || /\.log\.\d+/.test(e.name)) out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * U1 (inserts), U2 (updates → logs), compaction C1, U3, compaction C2: every file group of U1 then has
 * three slices. `beforeU3` runs before U3 (to move the clock).
 */
async function history(dir: string, beforeU3: () => void = () => undefined): Promise<{ u1: string; u2: string; c1: string; u3: string; c2: string }> {
  const u1 = await upsert(dir, 1);
  const u2 = await upsert(dir, 2);
  const c1 = await compact(dir);
  beforeU3();
  const u3 = await upsert(dir, 3);
  const c2 = await compact(dir);
  return { u1, u2, c1, u3, c2 };
}

describe('help and usage', () => {
  test('the usage lists the services and publish; each has its help', async () => {
    const top = await ok('--help');
    for (const line of ['lakelet compact|clean|archive|rollback <dir> [options]', 'lakelet savepoint <dir> [--instant <t>] | --delete <t>', 'lakelet restore <dir> --instant <savepoint>', 'lakelet publish <dir>']) expect(top).toContain(line);
    for (const c of ['compact', 'clean', 'archive', 'savepoint', 'restore', 'rollback', 'publish']) {
      const help = await ok(c, '--help');
      expect(help).toMatch(new RegExp(`^Usage: lakelet ${c} <dir>`));
      expect(await ok('help', c)).toBe(help);
    }
    expect(await ok('clean', '-h')).toContain('--retain-file-versions <n>');
    const unknown = await fails(['vacuum', 'x'], 'unknown command "vacuum"');
    for (const c of ['compact', 'clean', 'archive', 'savepoint', 'restore', 'rollback', 'publish']) expect(unknown.err).toContain(c);
  });

  test('every service needs exactly one <dir> that holds a table', async () => {
    for (const c of ['compact', 'clean', 'archive', 'savepoint', 'rollback']) {
      await fails([c], `${c}: missing <dir>`);
      await fails([c, scratch, 'extra'], 'unexpected argument "extra"');
      await fails([c, join(scratch, 'nope')], 'no such directory');
    }
    await fails(['savepoint', scratch], 'holds no Hudi table');
  });
});

describe('compact', () => {
  test('merges the logs: snapshot unchanged, read-optimized now equals it', async () => {
    const dir = await createTable();
    await upsert(dir, 1);
    await upsert(dir, 2);
    await upsert(dir, 3);
    expect(await rowsOf(dir)).toEqual(model(1, 2, 3));
    expect(await rowsOf(dir, '--read-optimized')).not.toEqual(model(1, 2, 3)); // updates still in logs
    expect((await inspect(dir)).totals.logFiles).toBeGreaterThan(0);

    const out = await ok('compact', dir);
    expect(out).toMatch(/^\d{17} compaction: \d+ file groups? compacted \(\d+ log files? merged, \d+ records? written\)\n$/);
    const instant = out.slice(0, 17);
    expect(await rowsOf(dir)).toEqual(model(1, 2, 3));
    expect(await rowsOf(dir, '--read-optimized')).toEqual(model(1, 2, 3));
    const report = await inspect(dir);
    expect(report.totals.logFiles).toBe(0);
    expect(report.timeline).toContainEqual(expect.objectContaining({ requestedTime: instant, action: 'commit', state: 'COMPLETED' }));
    expect(await ok('compact', dir)).toBe('nothing to compact (no file slice has log files)\n');
  });

  test('--no-force waits for the trigger; --json; a copy-on-write table is refused', async () => {
    const dir = await createTable();
    await upsert(dir, 1);
    await upsert(dir, 2);
    expect(await ok('compact', dir, '--no-force')).toMatch(/^nothing to compact \(the compaction trigger did not fire/);
    const before = await inspect(dir);
    expect(before.timeline.map((i) => i.action)).toEqual(['deltacommit', 'deltacommit']);
    expect(before.totals.logFiles).toBeGreaterThan(0);
    const doc = JSON.parse(await ok('compact', dir, '--json')) as { compactions: { instant: string; fileGroups: number; logFilesCompacted: number }[] };
    expect(doc.compactions).toHaveLength(1);
    expect(doc.compactions[0]?.logFilesCompacted).toBe(before.totals.logFiles);
    expect(await rowsOf(dir, '--read-optimized')).toEqual(model(1, 2));

    await fails(['compact', dir, '--force', '--no-force'], 'cannot be combined');
    const cow = await createTable('cow');
    await upsert(cow, 1);
    await fails(['compact', cow], 'only merge-on-read tables are compacted');
  });
});

describe('savepoint and restore', () => {
  test('restore brings back the savepointed state, across a compaction; the table takes writes again', async () => {
    const dir = await createTable();
    await upsert(dir, 1);
    const u2 = await upsert(dir, 2);
    const sp = JSON.parse(await ok('savepoint', dir, '--user', 'alice', '--comments', 'before b3', '--json')) as { instant: string; savepointedBy: string; comments: string; files: number };
    expect(sp).toMatchObject({ instant: u2, savepointedBy: 'alice', comments: 'before b3' });
    expect(sp.files).toBeGreaterThan(0);
    const text = await ok('inspect', dir);
    expect(text).toMatch(new RegExp(`savepoints:\\s+${u2} \\(by alice at \\d{4}-\\d\\d-\\d\\dT[^)]+\\) "before b3"`));
    expect(text).toMatch(new RegExp(`${u2}\\s+deltacommit\\s+COMPLETED\\s+-\\s+<- savepointed`));
    expect((await inspect(dir)).savepoints).toEqual([expect.objectContaining({ instant: u2, savepointedBy: 'alice', comments: 'before b3' })]);

    const u3 = await upsert(dir, 3);
    const c = await compact(dir);
    const u4 = await upsert(dir, 4);
    expect(await rowsOf(dir)).toEqual(model(1, 2, 3, 4));

    const out = await ok('restore', dir, '--instant', u2);
    expect(out).toMatch(new RegExp(`^\\d{17} restore: table restored to savepoint ${u2}; 3 writes rolled back \\(${u4}, ${c}, ${u3}\\)\\n$`));
    expect(await rowsOf(dir)).toEqual(model(1, 2));
    expect(await rowsOf(dir, '--as-of', u2)).toEqual(model(1, 2));
    const report = await inspect(dir);
    const writes = report.timeline.filter((i) => ['commit', 'deltacommit'].includes(i.action)).map((i) => i.requestedTime);
    expect(writes.every((t) => t <= u2)).toBe(true);
    expect(report.savepoints.map((s) => s.instant)).toEqual([u2]);

    await upsert(dir, 4);
    expect(await rowsOf(dir)).toEqual(model(1, 2, 4));
  });

  test('bad savepoints and restores fail with one line; --delete removes a savepoint', async () => {
    const dir = await createTable();
    await fails(['savepoint', dir], 'no completed commit to savepoint');
    const u1 = await upsert(dir, 1);
    const u2 = await upsert(dir, 2);
    expect(await ok('savepoint', dir, '--instant', u1)).toMatch(new RegExp(`^savepointed ${u1} \\(\\d+ files? in 2 partitions kept\\)\\n$`));
    await fails(['savepoint', dir, '--instant', u1], 'already savepointed');
    await fails(['savepoint', dir, '--instant', '2024-01-01'], 'option --instant needs an instant time');
    await fails(['restore', dir], 'option --instant is required');
    await fails(['restore', dir, '--instant', u2], `${u2} is not a savepoint (savepoints: ${u1})`);
    await fails(['restore', dir, '--instant', 'yesterday'], 'needs an instant time');
    await fails(['savepoint', dir, '--delete', u1, '--user', 'x'], 'options --delete and --user cannot be combined');
    await fails(['savepoint', dir, '--delete', '20200101000000'], 'no savepoint at 20200101000000');
    expect(await rowsOf(dir)).toEqual(model(1, 2)); // nothing changed

    expect(await ok('savepoint', dir, '--delete', u1)).toBe(`deleted savepoint ${u1}\n`);
    expect((await inspect(dir)).savepoints).toEqual([]);
    expect(await ok('inspect', dir)).toMatch(/savepoints:\s+\(none\)/);
    await fails(['restore', dir, '--instant', u1], 'is not a savepoint (savepoints: none)');
  });
});

describe('rollback', () => {
  test('undoes the latest write, then the one before', async () => {
    const dir = await createTable();
    const u1 = await upsert(dir, 1);
    const u2 = await upsert(dir, 2);
    expect(await ok('rollback', dir)).toMatch(new RegExp(`^\\d{17} rollback: rolled back deltacommit ${u2}; \\d+ files? deleted\\n$`));
    expect(await rowsOf(dir)).toEqual(model(1));
    const report = await inspect(dir);
    expect(report.timeline.map((i) => i.requestedTime)).not.toContain(u2);
    expect(report.timeline.map((i) => i.action)).toContain('rollback');

    const doc = JSON.parse(await ok('rollback', dir, '--json')) as { rolledBack: string; action: string; filesDeleted: number };
    expect(doc).toMatchObject({ rolledBack: u1, action: 'deltacommit' });
    expect(doc.filesDeleted).toBeGreaterThan(0);
    expect(await rowsOf(dir)).toEqual([]);
    await fails(['rollback', dir], 'no commit to roll back');
  });

  test('an older write cannot be rolled back alone; a compaction after the write goes with it', async () => {
    const dir = await createTable();
    const u1 = await upsert(dir, 1);
    const u2 = await upsert(dir, 2);
    const c = await compact(dir);
    const u3 = await upsert(dir, 3);
    await fails(['rollback', dir, '--instant', u1], `${u1} is not the latest commit (${u3})`);
    await fails(['rollback', dir, '--instant', 'latest'], 'needs an instant time');
    expect(await ok('rollback', dir, '--instant', u3)).toContain(`rolled back deltacommit ${u3};`);
    expect(await rowsOf(dir)).toEqual(model(1, 2));
    expect(await ok('rollback', dir)).toContain(`rolled back deltacommit ${u2} and the compaction after it (${c});`);
    expect(await rowsOf(dir)).toEqual(model(1));
    expect(await rowsOf(dir, '--read-optimized')).toEqual(model(1));
  });
});

describe('clean', () => {
  const cases = [
    { policy: 'KEEP_LATEST_COMMITS', args: ['--retain-commits', '1'], oldest: (h: Awaited<ReturnType<typeof history>>) => h.c2 },
    { policy: 'KEEP_LATEST_FILE_VERSIONS', args: ['--policy', 'keep-latest-file-versions', '--retain-file-versions', '1'], oldest: (h: Awaited<ReturnType<typeof history>>) => h.c2 },
    { policy: 'KEEP_LATEST_BY_HOURS', args: ['--policy', 'KEEP_LATEST_BY_HOURS', '--retain-hours', '1'], oldest: (h: Awaited<ReturnType<typeof history>>) => h.u3 },
  ];
  test.each(cases)('$policy deletes old file slices; time travel before them fails naming the oldest readable instant', async ({ policy, args, oldest }) => {
    const dir = await createTable();
    // By hours: U1, U2 and C1 are two hours older than U3 and C2.
    const moveClock = () => void vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 3_600_000, shouldAdvanceTime: true });
    const h = await history(dir, policy === 'KEEP_LATEST_BY_HOURS' ? moveClock : undefined);
    const before = dataFiles(dir);
    expect(await rowsOf(dir, '--as-of', h.u1)).toEqual(model(1));

    const doc = JSON.parse(await ok('clean', dir, ...args, '--json')) as { instant: string; policy: string; filesDeleted: number; oldestReadableInstant: string };
    const after = dataFiles(dir);
    expect(doc.policy).toBe(policy);
    expect(doc.oldestReadableInstant).toBe(oldest(h));
    expect(doc.filesDeleted).toBe(before.length - after.length);
    expect(after.length).toBeLessThan(before.length);
    expect(after.every((f) => before.includes(f))).toBe(true);
    expect(before.filter((f) => !after.includes(f)).some((f) => f.includes(h.u1))).toBe(true); // U1's base files went

    expect(await rowsOf(dir)).toEqual(model(1, 2, 3));
    expect(await rowsOf(dir, '--as-of', oldest(h))).toEqual(model(1, 2, 3));
    await fails(['query', dir, '--as-of', h.u1], new RegExp(`query: the table as of ${h.u1} is no longer readable \\(clean ${doc.instant} deleted its files\\); the oldest readable instant is ${oldest(h)}`));
    expect(await ok('inspect', dir)).toMatch(new RegExp(`oldest readable:\\s+${oldest(h)} \\(clean ${doc.instant};`));
    expect((await inspect(dir)).oldestReadableInstant).toEqual({ instant: oldest(h), clean: doc.instant });
    expect(await ok('clean', dir, ...args)).toMatch(new RegExp(`^nothing to clean \\(${policy}, retain 1 [\\w ]+\\); oldest readable instant ${oldest(h)}\\n$`));
  });

  test('the text line; a savepointed commit stays readable', async () => {
    const dir = await createTable();
    const h = await history(dir);
    await ok('savepoint', dir, '--instant', h.u1);
    const out = await ok('clean', dir, '--retain-commits', '1');
    expect(out).toMatch(new RegExp(`^\\d{17} clean \\(KEEP_LATEST_COMMITS, retain 1 commit\\): \\d+ files? deleted; oldest readable instant ${h.c2}\\n$`));
    expect(await rowsOf(dir, '--as-of', h.u1)).toEqual(model(1));
    await fails(['query', dir, '--as-of', h.u2], `the oldest readable instant is ${h.c2}, or the savepoint ${h.u1}`);
  });

  test('nothing to clean on a young table; bad options fail with one line', async () => {
    const dir = await createTable();
    await upsert(dir, 1);
    expect(await ok('clean', dir)).toBe('nothing to clean (KEEP_LATEST_COMMITS)\n');
    expect(JSON.parse(await ok('clean', dir, '--json'))).toEqual({ instant: null, policy: 'KEEP_LATEST_COMMITS', filesDeleted: 0, earliestInstantToRetain: null, oldestReadableInstant: null });
    await fails(['clean', dir, '--policy', 'KEEP_EVERYTHING'], 'option --policy must be one of KEEP_LATEST_COMMITS, KEEP_LATEST_FILE_VERSIONS, KEEP_LATEST_BY_HOURS, got "KEEP_EVERYTHING"');
    await fails(['clean', dir, '--policy', 'KEEP_LATEST_COMMITS', '--retain-hours', '3'], 'option --retain-hours applies to KEEP_LATEST_BY_HOURS, not KEEP_LATEST_COMMITS');
    await fails(['clean', dir, '--retain-commits', '2', '--retain-file-versions', '2'], 'belong to different policies');
    await fails(['clean', dir, '--retain-commits', '0'], 'option --retain-commits needs a whole number ≥ 1');
    await fails(['clean', dir, '--retain-hours', '-1'], 'option --retain-hours needs a number of hours ≥ 0, got "-1"');
    await fails(['clean', dir, '--retain-hours', 'soon'], 'option --retain-hours needs a number of hours');
    expect((await inspect(dir)).timeline.map((i) => i.action)).toEqual(['deltacommit']);
  });
});

describe('archive', () => {
  test('moves old instants off the active timeline; queries still work', async () => {
    const dir = await createTable();
    const h = await history(dir);
    expect(await ok('archive', dir)).toBe('nothing to archive (5 completed commits active, keep-max 30; 5 instants on the active timeline)\n');
    expect(existsSync(join(dir, '.hoodie', 'archived'))).toBe(false);

    const out = await ok('archive', dir, '--keep-min', '2', '--keep-max', '3');
    expect(out).toBe(`archived 3 instants (${h.u1} to ${h.c1}); 2 instants remain on the active timeline\n`);
    expect((await inspect(dir)).timeline.map((i) => i.requestedTime)).toEqual([h.u3, h.c2]);
    expect(readdirSync(join(dir, '.hoodie', 'archived')).some((f) => f.startsWith('.commits_.archive.'))).toBe(true);
    expect(await rowsOf(dir)).toEqual(model(1, 2, 3));
    expect(await rowsOf(dir, '--read-optimized')).toEqual(model(1, 2, 3));
    expect(await rowsOf(dir, '--as-of', h.u3)).toEqual(model(1, 2, 3));
    // Incremental from an archived instant: the archived timeline supplies the commits.
    expect(await rowsOf(dir, '--from', h.u1)).toEqual(model(1, 2, 3).filter((r) => r.ts > 1));
    const doc = JSON.parse(await ok('archive', dir, '--keep-min', '2', '--keep-max', '3', '--json')) as { archived: unknown[]; activeInstants: number };
    expect(doc).toMatchObject({ archived: [], activeInstants: 2 });
  });

  test('bad keep counts fail with one line and archive nothing', async () => {
    const dir = await createTable();
    await upsert(dir, 1);
    await fails(['archive', dir, '--keep-min', '3', '--keep-max', '3'], 'option --keep-max (3) must be greater than --keep-min (3)');
    await fails(['archive', dir, '--keep-max', '10'], 'option --keep-max (10) must be greater than --keep-min (20)');
    await fails(['archive', dir, '--keep-min', '0', '--keep-max', '2'], 'option --keep-min needs a whole number ≥ 1');
    await fails(['archive', dir, '--keep-min', 'few'], 'option --keep-min needs a whole number');
    expect((await inspect(dir)).timeline).toHaveLength(1);
  });
});

describe('inspect', () => {
  test('pending instants are counted, listed and marked', async () => {
    const dir = await createTable();
    const u1 = await upsert(dir, 1);
    const pending = '20200101000000000'; // long ago, no heartbeat: a failed write
    writeFileSync(join(dir, '.hoodie', `${pending}.deltacommit.requested`), '');
    writeFileSync(join(dir, '.hoodie', `${pending}.deltacommit.inflight`), '');
    const text = await ok('inspect', dir);
    expect(text).toContain('Timeline: 2 instants (1 pending)');
    expect(text).toMatch(new RegExp(`${pending}\\s+deltacommit\\s+INFLIGHT\\s+-\\s+<- pending`));
    expect(text).toMatch(new RegExp(`pending:\\s+${pending} deltacommit \\(INFLIGHT\\)`));
    expect(text).not.toMatch(new RegExp(`${u1}.*<- pending`));
    expect((await inspect(dir)).pending).toEqual([{ requestedTime: pending, action: 'deltacommit', state: 'INFLIGHT' }]);
    // The next write rolls the failed one back.
    await upsert(dir, 2);
    const after = await inspect(dir);
    expect(after.pending).toEqual([]);
    expect(await ok('inspect', dir)).toMatch(/pending:\s+\(none\)/);
    expect(after.oldestReadableInstant).toBeNull();
  });
});
