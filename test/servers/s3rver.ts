// s3rver 3.7.1 on loopback for the S3 tests (toolchain.md §5b), in a child process started with
// `--openssl-legacy-provider` (its ListObjectsV2 continuation tokens use DES). Bucket `lake`, CORS open.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopProcess, waitForHttp } from './process.js';

/** A running s3rver. */
export interface S3rverServer {
  /** `http://127.0.0.1:<port>` (path-style endpoint). */
  url: string;
  /** The bucket created at start. */
  bucket: string;
  stop(): Promise<void>;
}

/** Credentials s3rver accepts (it checks the access key id only; it never verifies SigV4 signatures). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** Start s3rver on a free loopback port with an empty data directory. */
export async function startS3rver(): Promise<S3rverServer> {
  const dir = mkdtempSync(join(tmpdir(), 'lakelet-s3rver-'));
  const main = join(import.meta.dirname, 's3rver-main.mjs');
  const child = spawn(process.execPath, ['--openssl-legacy-provider', main, '0', dir], { stdio: ['ignore', 'pipe', 'pipe'], cwd: join(import.meta.dirname, '..', '..') });
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`s3rver did not start within 20 s: ${out.trim()}`)), 20_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited (${code}): ${out.trim()}`));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/`, child, () => out);
  return {
    url,
    bucket: 'lake',
    async stop() {
      await stopProcess(child, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
