// Test helpers for the CLI: run `main()` in-process with captured stdout/stderr, a tiny RFC 4180 CSV
// parser to read `--format csv` back, and a build of dist/ for tests that spawn bin/lakelet.js.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { main } from '../../src/node/cli/cli.js';

/** What one in-process CLI run produced. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Run the CLI in-process with string-capturing streams. */
export async function runCli(...argv: string[]): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await main(argv, {
    stdout: { write: (s: string) => { out += s; return true; } },
    stderr: { write: (s: string) => { err += s; return true; } },
  });
  return { code, out, err };
}

/** Run the CLI and expect success (exit 0) with nothing on stderr; returns stdout. */
export async function runCliOk(...argv: string[]): Promise<string> {
  const r = await runCli(...argv);
  expect(r.err, argv.join(' ')).toBe('');
  expect(r.code, argv.join(' ')).toBe(0);
  return r.out;
}

/** Parse JSON lines. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Parse RFC 4180 CSV (quoted fields may hold commas, doubled quotes and newlines). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n') { row.push(field); rows.push(row); row = []; field = ''; }
    else if (c !== '\r') field += c;
  }
  if (field !== '' || row.length > 0) { row.push(field); rows.push(row); }
  return rows;
}

const repoDir = fileURLToPath(new URL('../..', import.meta.url));

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const distIsFresh = (): boolean => {
  const cli = join(repoDir, 'dist/node/cli/cli.js');
  return existsSync(cli) && statSync(cli).mtimeMs >= newestMtime(join(repoDir, 'src'));
};

/**
 * Make sure dist/ (which bin/lakelet.js runs) is built from the current src/: runs `npm run build` when
 * dist is missing or older than src. Test files calling this in parallel serialise on a lock directory, so
 * only one of them builds.
 */
export async function ensureDistBuilt(): Promise<void> {
  if (distIsFresh()) return;
  const lock = join(tmpdir(), `lakelet-build-${createHash('sha1').update(repoDir).digest('hex').slice(0, 12)}.lock`);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // another test file is building; a lock older than 5 minutes is left over from a crash
      try {
        if (Date.now() - statSync(lock).mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        // the lock went away meanwhile
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    if (distIsFresh()) return;
    const build = spawnSync('npm', ['run', 'build'], { cwd: repoDir, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Run the real `bin/lakelet.js` (see {@link ensureDistBuilt}) as a child process; `closeStdout` closes its stdout at once. */
export function runBin(argv: readonly string[], options: { closeStdout?: boolean; cwd?: string } = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoDir, 'bin/lakelet.js'), ...argv], { cwd: options.cwd ?? repoDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    if (options.closeStdout) child.stdout.destroy();
    else child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}
