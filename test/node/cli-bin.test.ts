// The real `bin/lakelet.js` as a child process (built to dist/ first when dist is missing or older than
// src/): exit codes, a one-line stderr without a stack trace, and a quiet exit when stdout closes early.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, test } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(repo, 'bin/lakelet.js');
const root = inject('FIXTURES_DIR');
const V6 = join(root, 'sample_table/cow/v6_nonpartitioned.zip');
const MOR_V9 = join(root, 'sample_table/mor/avro/v9_txns_simple_nometa.zip');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

interface Result { code: number | null; out: string; err: string }

function run(argv: string[], options: { closeStdout?: boolean } = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...argv], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    if (options.closeStdout) child.stdout.destroy();
    else child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('bin/lakelet.js', () => {
  beforeAll(() => {
    const cli = join(repo, 'dist/node/cli.js');
    if (!existsSync(cli) || statSync(cli).mtimeMs < newestMtime(join(repo, 'src'))) {
      const build = spawnSync('npm', ['run', 'build'], { cwd: repo, encoding: 'utf8' });
      if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
    }
  }, 180_000);

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
