// replicate between a local directory (node-fs) and the S3 server the tests start on loopback (s3rver), through
// the API and through `lakelet replicate`: the bucket copy reads like the source, a second run after more
// writes publishes only the new instants, and the bucket replicates back into a fresh directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { createTable, openTable } from '../../src/index.js';
import { nodeFsStorage } from '../../src/storage/node-fs.js';
import { s3Storage } from '../../src/storage/s3.js';
import { main } from '../../src/node/cli/cli.js';
import { replicate, type ReplicateProgress } from '../../src/index.js';
import { S3RVER_CREDENTIALS } from '../servers/s3rver.js';
import { completedFiles, QUIET, replicatedTree, row, SCHEMA, storeRows, treeDifferences } from './replicate-helpers.js';

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'lakelet-replicate-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
let run = 0;
const bucketPrefix = (): string => `replicate/${Date.now().toString(36)}-${run++}`;
const bucket = (prefix: string) => s3Storage({ endpoint: inject('S3_URL'), bucket: 'lake', prefix, region: 'us-east-1', credentials: S3RVER_CREDENTIALS, retryDelayMs: 5 });

describe('replicate node-fs ↔ S3 (s3rver on loopback)', () => {
  test('a v9 MOR table with its metadata table: push, catch up, progress, and back into a directory', async () => {
    const local = nodeFsStorage(tempDir());
    const table = await createTable(local, { name: 'rep', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, tableVersion: 9 });
    await table.upsert([row('a', 'x', 1, 1), row('b', 'y', 1, 2)], QUIET);
    const remote = bucket(bucketPrefix());
    const progress: ReplicateProgress[] = [];
    const first = await replicate(local, remote, { onProgress: (p) => progress.push(p) });
    expect(first.published).toEqual(await completedFiles(local));
    expect(progress.at(-1)?.filesDone).toBe(progress.at(-1)?.filesTotal);
    expect(progress.map((p) => p.phase)).toContain('publish');
    expect(await storeRows(remote)).toEqual(await storeRows(local));

    const before = await completedFiles(remote);
    await table.upsert([row('a', 'x', 2, 10), row('c', 'z', 1, 3)], QUIET);
    const second = await replicate(local, remote);
    expect(second.published).toEqual((await completedFiles(local)).filter((f) => !before.includes(f)));
    expect(treeDifferences(await replicatedTree(local), await replicatedTree(remote))).toEqual([]);

    const back = nodeFsStorage(tempDir());
    await replicate(remote, back);
    expect(await storeRows(back)).toEqual(await storeRows(local));
    expect((await openTable(back)).commits.map((c) => c.requestedTime)).toEqual(table.commits.map((c) => c.requestedTime));
  });

  test('lakelet replicate <dir> s3://lake/<prefix>: summary line, then "up to date"', async () => {
    const dir = tempDir();
    const table = await createTable(nodeFsStorage(dir), { name: 'rep', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA });
    await table.upsert([row('a', 'x', 1, 1)], QUIET);
    const prefix = bucketPrefix();
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = S3RVER_CREDENTIALS.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = S3RVER_CREDENTIALS.secretAccessKey;
    try {
      const runCli = async (): Promise<{ code: number; out: string; err: string }> => {
        let out = '';
        let err = '';
        const code = await main(['replicate', dir, `s3://lake/${prefix}`, '--endpoint', inject('S3_URL')], { stdout: { write: (s: string) => { out += s; return true; } }, stderr: { write: (s: string) => { err += s; return true; } } });
        return { code, out, err };
      };
      const first = await runCli();
      expect(first).toMatchObject({ code: 0, err: '' });
      expect(first.out).toMatch(/^1 instant published to s3:\/\/lake\//);
      expect(await storeRows(bucket(prefix))).toEqual(await storeRows(nodeFsStorage(dir)));
      const again = await runCli();
      expect(again.out).toMatch(/^up to date: 0 instants published/);
    } finally {
      if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
      else process.env.AWS_ACCESS_KEY_ID = saved.id;
      if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
      else process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    }
  });

  test('lakelet help replicate and bad arguments', async () => {
    let out = '';
    let err = '';
    const io = { stdout: { write: (s: string) => { out += s; return true; } }, stderr: { write: (s: string) => { err += s; return true; } } };
    expect(await main(['help', 'replicate'], io)).toBe(0);
    expect(out).toContain('Usage: lakelet replicate <src> <dst>');
    expect(await main(['replicate', tempDir()], io)).toBe(2);
    expect(err).toContain('needs <src> and <dst>');
  });
});
