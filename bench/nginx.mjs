// nginx on loopback for the HTTP-read benchmark: a read-only static server (Range, JSON autoindex) over a
// given directory, on a free port, run in the foreground and stopped with SIGQUIT. Ported from test/servers/nginx.ts.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx'].find((p) => existsSync(p));

/** True when an nginx binary is installed. */
export const nginxAvailable = () => NGINX !== undefined;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function config(dir, root, port) {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return `${asRoot ? 'user root root;\n' : ''}worker_processes 1;
error_log stderr warn;
pid ${dir}/nginx.pid;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  include /etc/nginx/mime.types; default_type application/octet-stream;
  sendfile on;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { autoindex on; autoindex_format json; }
  }
}
`;
}

async function waitForHttp(url, child, stderr, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`nginx exited (${child.exitCode ?? child.signalCode}): ${stderr().trim()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.body?.cancel();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  throw new Error(`nginx: no answer from ${url} within ${timeoutMs} ms: ${stderr().trim()}`);
}

function stop(child, signal) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/** Start nginx serving `root` at `http://127.0.0.1:<port>/`; resolves to `{ url, stop() }`. */
export async function startNginx(root) {
  if (!NGINX) throw new Error('nginx is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'lakelet-bench-nginx-'));
  let lastError;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    writeFileSync(join(dir, 'nginx.conf'), config(dir, root, port));
    const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitForHttp(`${url}/`, child, () => stderr);
      return {
        url,
        async stop() {
          await stop(child, 'SIGQUIT');
          rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (err) {
      lastError = err;
      await stop(child, 'SIGKILL');
    }
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error(`nginx (${NGINX}) did not start: ${lastError?.message}`);
}
