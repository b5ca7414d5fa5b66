// `lakelet replicate <src> <dst> --mode push|pull|rebase` between two directories: a push into a diverged copy
// fails with CONFLICT, --mode rebase replays the local writes and pulls, --mode pull brings new commits in, a bad
// mode is a usage error, and the help text names the modes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { openTable } from '../../src/index.js';
import { nodeFsStorage } from '../../src/node/index.js';
import { main } from '../../src/node/cli/cli.js';
import { replicate } from '../../src/replication/replicate.js';
import { makeTable, QUIET, replicatedTree, row, treeDifferences } from './replicate-helpers.js';

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'lakelet-replicate-cli-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: { write: (s: string) => { out += s; return true; } }, stderr: { write: (s: string) => { err += s; return true; } } });
  return { code, out, err };
}

describe('lakelet replicate --mode', () => {
  test('push conflicts on a diverged copy; rebase replays and pulls; pull brings new commits', async () => {
    const [l, r] = [tempDir(), tempDir()];
    await makeTable(nodeFsStorage(r), { type: 'COPY_ON_WRITE', version: 6 });
    await replicate(nodeFsStorage(r), nodeFsStorage(l));
    await (await openTable(nodeFsStorage(r))).upsert([row('e', 'y', 1, 5)], QUIET);
    await (await openTable(nodeFsStorage(l))).upsert([row('f', 'z', 1, 6)], QUIET);
    const push = await run(['replicate', l, r]);
    expect(push.code).toBe(2);
    expect(push.err).toContain('the target diverged');
    const rebase = await run(['replicate', l, r, '--mode', 'rebase']);
    expect(rebase).toMatchObject({ code: 0, err: '' });
    expect(rebase.out).toMatch(/^1 write replayed on .*, \d+ instants? pulled into /);
    expect(treeDifferences(await replicatedTree(nodeFsStorage(l)), await replicatedTree(nodeFsStorage(r)))).toEqual([]);
    await (await openTable(nodeFsStorage(r))).upsert([row('g', 'x', 1, 7)], QUIET);
    const pull = await run(['replicate', l, r, '--mode', 'pull']);
    expect(pull.out).toMatch(/^1 instant pulled into /);
    expect((await run(['replicate', l, r, '--mode', 'pull'])).out).toMatch(/^nothing to pull/);
    const bad = await run(['replicate', l, r, '--mode', 'sideways']);
    expect([bad.code, bad.err.includes('--mode must be push, pull or rebase')]).toEqual([2, true]);
    const help = await run(['help', 'replicate']);
    expect(help.out).toContain('--mode <mode>');
    expect(help.out).toContain('rebase  when <dst> diverged');
  });
});
