// nginx on loopback for the remote-store tests (toolchain.md §5a): a WebDAV-enabled static server with a
// JSON autoindex and CORS, rendered into a temp dir and run in the foreground; stopped with SIGQUIT.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, stopProcess, waitForHttp } from './process.js';

/** A running nginx. */
export interface NginxServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  /** The directory served at `/`. */
  root: string;
  stop(): Promise<void>;
}

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx'].find((p) => existsSync(p)) ?? 'nginx';

function config(dir: string, port: number): string {
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
  sendfile on; client_max_body_size 0;
  server {
    listen 127.0.0.1:${port};
    root ${dir}/data;
    location / {
      dav_methods PUT DELETE MKCOL; create_full_put_path on; dav_access user:rw group:r all:r;
      autoindex on; autoindex_format json;
      add_header Access-Control-Allow-Origin $http_origin always;
      add_header Access-Control-Allow-Methods "GET, HEAD, PUT, DELETE, MKCOL, OPTIONS" always;
      add_header Access-Control-Allow-Headers "Range, Content-Type, If-None-Match, If-Match, Authorization" always;
      add_header Access-Control-Expose-Headers "ETag, Content-Range, Content-Length, Accept-Ranges, Last-Modified" always;
      add_header Access-Control-Max-Age 600 always;
      add_header Vary Origin always;
      if ($request_method = OPTIONS) { return 204; }
    }
  }
}
`;
}

/** Start nginx on a free loopback port, serving a fresh empty directory. */
export async function startNginx(): Promise<NginxServer> {
  const dir = mkdtempSync(join(tmpdir(), 'lakelet-nginx-'));
  mkdirSync(join(dir, 'data'));
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    writeFileSync(join(dir, 'nginx.conf'), config(dir, port));
    const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitForHttp(`${url}/`, child, () => stderr);
      return {
        url,
        root: join(dir, 'data'),
        async stop() {
          await stopProcess(child, 'SIGQUIT');
          rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (err) {
      lastError = err;
      await stopProcess(child, 'SIGKILL');
    }
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error(`nginx (${NGINX}) did not start: ${(lastError as Error)?.message}`);
}
