// The CLI's exit codes on the real bin/lakelet.js (README "Exit codes"): 0 once a write committed, with a
// post-commit failure as a `lakelet: warning:` line on stderr; 2 when nothing changed — a refused write, or a
// rollback of a pending write whose heartbeat is alive — with the table byte-identical.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTable, LakeletError, openTable, type Storage } from '../../src/index.js';
import { nodeFsStorage } from '../../src/node/index.js';
import { expectTreeUnchanged, treeSnapshot } from '../helpers/tree-snapshot.js';
import { ensureDistBuilt, runBin } from './cli-helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'lakelet-exit-'));
  dirs.push(d);
  return d;
};

const SCHEMA = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'v', type: 'long' }] };
const QUIET = { compaction: { inline: false }, clean: { automatic: false }, archive: { automatic: false } };

async function table(dir: string, type: 'COPY_ON_WRITE' | 'MERGE_ON_READ') {
  const t = await createTable(nodeFsStorage(dir), { name: 'e', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, ...QUIET });
  await t.upsert([{ id: 'a', part: 'x', ts: 1, v: 1 }, { id: 'b', part: 'x', ts: 1, v: 1 }]);
  return t;
}

function jsonl(dir: string, rows: object[]): string {
  const path = join(dir, `in-${rows.length}-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return path;
}

/** A store that fails every call from the first data-file write on: the writer crashed mid-write. */
function crashing(inner: Storage): Storage {
  let dead = false;
  const g = <T>(p: string, w: boolean, fn: () => Promise<T>) => {
    if (w && !p.startsWith('.hoodie/')) dead = true;
    return dead ? Promise.reject(new LakeletError('STORAGE', `crashed at ${p}`, { path: p })) : fn();
  };
  return {
    label: 'crashing', readOnly: false,
    head: (p) => g(p, false, () => inner.head(p)), read: (p, r) => g(p, false, () => inner.read(p, r)),
    write: (p, b) => g(p, true, () => inner.write(p, b)), writeIfAbsent: (p, b) => g(p, true, () => inner.writeIfAbsent(p, b)),
    list: (p, o) => g(p, false, () => inner.list(p, o)), delete: (p) => g(p, false, () => inner.delete(p)),
  };
}

describe('lakelet exit codes (bin)', () => {
  beforeAll(ensureDistBuilt, 180_000);

  test('a post-commit compaction that fails: exit 0, a warning on stderr, the insert committed once', async () => {
    const dir = scratch();
    const t = await table(dir, 'MERGE_ON_READ');
    for (let i = 2; i <= 4; i++) await t.upsert([{ id: 'a', part: 'x', ts: i, v: i }]); // logs on x: 4 deltacommits
    const storage = nodeFsStorage(dir);
    const base = (await storage.list('part=x')).find((f) => f.path.endsWith('.parquet'));
    if (!base) throw new Error('no base file');
    await storage.write(base.path, (await storage.read(base.path)).slice(0, 64));
    // The 5th deltacommit triggers inline compaction (the CLI's defaults), which cannot read x's base file.
    const r = await runBin(['insert', dir, '--input', jsonl(dir, [{ id: 'y1', part: 'y', ts: 1, v: 7 }]), '--quiet']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^lakelet: warning: compaction failed after the commit \(the write is committed; do not retry it\): .*cannot read footer.*part=x\//m);
    expect(r.err).not.toMatch(/\n\s+at /);
    const instant = r.out.split(' ')[0] ?? '';
    const after = await openTable(nodeFsStorage(dir));
    expect(after.commits.filter((c) => c.action === 'deltacommit').map((c) => c.requestedTime)).toContain(instant);
    expect(after.commits.filter((c) => c.action === 'deltacommit').length).toBe(5);
    const ys: unknown[] = [];
    for await (const row of after.rows({ columns: ['id', 'v'], filters: ["part = 'y'"] })) ys.push(row);
    expect(ys).toEqual([{ id: 'y1', v: 7n }]);
  });

  test('a refused write (a row without its key): exit 2, one stderr line, the table byte-identical', async () => {
    const dir = scratch();
    await table(dir, 'COPY_ON_WRITE');
    const input = jsonl(scratch(), [{ id: 'c', part: 'x', ts: 1, v: 1 }, { part: 'x', ts: 1, v: 2 }]);
    const before = await treeSnapshot(nodeFsStorage(dir));
    const r = await runBin(['upsert', dir, '--input', input, '--quiet']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^lakelet: [^\n]+\n$/);
    await expectTreeUnchanged(nodeFsStorage(dir), before);
  });

  test('rollback of a crashed write within the heartbeat timeout: exit 2 and unchanged; --force: exit 0', async () => {
    const dir = scratch();
    const t = await table(dir, 'COPY_ON_WRITE');
    const good = t.commits.at(-1)?.requestedTime ?? '';
    await expect((await openTable(crashing(nodeFsStorage(dir)))).upsert([{ id: 'a', part: 'x', ts: 2, v: 2 }], QUIET)).rejects.toThrow(/crashed/);
    const pending = (await openTable(nodeFsStorage(dir))).timeline.find((i) => i.state !== 'COMPLETED')?.requestedTime ?? '';
    expect(pending).not.toBe('');
    const before = await treeSnapshot(nodeFsStorage(dir));
    const refused = await runBin(['rollback', dir]);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(new RegExp(`^lakelet: rollback: the pending commit ${pending} has a live heartbeat.*--force[^\\n]*\\n$`));
    await expectTreeUnchanged(nodeFsStorage(dir), before);
    const forced = await runBin(['rollback', dir, '--instant', pending, '--force']);
    expect(forced.code).toBe(0);
    expect(forced.out).toContain(`rolled back commit ${pending} (inflight)`);
    const after = await openTable(nodeFsStorage(dir));
    expect(after.commits.map((c) => c.requestedTime)).toContain(good);
    expect(after.timeline.filter((i) => i.state !== 'COMPLETED')).toEqual([]);
  });
});
