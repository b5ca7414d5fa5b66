// vitest globalSetup (listed by both projects): starts nginx and s3rver once for the whole run, hands their
// URLs to the tests through provide() → inject('NGINX_URL' | 'NGINX_ROOT' | 'S3_URL'), and stops them after.
import type { TestProject } from 'vitest/node';
import { startNginx, type NginxServer } from './nginx.js';
import { startS3rver, type S3rverServer } from './s3rver.js';

interface Shared {
  servers: Promise<{ nginx: NginxServer; s3: S3rverServer }>;
  users: number;
}

// Each project loads this file in its own module runner, so the shared state lives on globalThis
// (the same main process) rather than in module variables.
const KEY = Symbol.for('lakelet.test-servers');
const registry = globalThis as unknown as Record<symbol, Shared | undefined>;

/** Start the servers (once, for both projects) and provide their URLs; the returned function stops them after the last project. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let shared = registry[KEY];
  if (!shared) {
    const servers = Promise.all([startNginx(), startS3rver()]).then(([nginx, s3]) => ({ nginx, s3 }));
    shared = { servers, users: 0 };
    registry[KEY] = shared;
  }
  shared.users++;
  const { nginx, s3 } = await shared.servers;
  project.provide('NGINX_URL', nginx.url);
  project.provide('NGINX_ROOT', nginx.root);
  project.provide('S3_URL', s3.url);
  const mine = shared;
  return async () => {
    if (--mine.users > 0) return;
    if (registry[KEY] === mine) registry[KEY] = undefined;
    await Promise.all([nginx.stop(), s3.stop()]);
  };
}
