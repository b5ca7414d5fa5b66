// The real `bin/lakelet.js` as a child process (built to dist/ first when dist is missing or older than
// src/): exit codes, a one-line stderr without a stack trace, and a quiet exit when stdout closes early.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, test } from 'vitest';
import { ensureDistBuilt, runBin } from './cli-helpers.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const root = inject('FIXTURES_DIR');
const V6 = join(root, 'sample_table/cow/v6_nonpartitioned.zip');
const MOR_V9 = join(root, 'sample_table/mor/avro/v9_txns_simple_nometa.zip');

const run = runBin;

describe('bin/lakelet.js', () => {
  beforeAll(ensureDistBuilt, 180_000);

  test('a query succeeds with exit 0', async () => {
    const r = await run(['query', V6, '--columns', 'id', '--format', 'csv']);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out.split('\n').filter(Boolean).sort()).toEqual(['1', '2', '3', '4', 'id']);
  });

  test('--version prints the version', async () => {
    const r = await run(['--version']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
  });

  for (const [name, argv] of [
    ['unknown option', ['query', V6, '--bogus']],
    ['missing table', ['query', join(repo, 'no-such-table.zip')]],
    ['bad filter', ['query', V6, '--where', 'id ~ 1']],
    ['--to without --from', ['query', V6, '--to', '20240418173551906']],
  ] as const) {
    test(`${name}: exit 2, one stderr line, no stack`, async () => {
      const r = await run([...argv]);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(/^lakelet: [^\n]+\n$/);
      expect(r.err).not.toMatch(/\n\s+at /);
    });
  }

  test('stdout closed early (EPIPE): quiet exit 0', async () => {
    const r = await run(['query', MOR_V9, '--format', 'table'], { closeStdout: true });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });
});
