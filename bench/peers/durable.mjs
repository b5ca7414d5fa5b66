// Durability helpers of the peer benchmarks: every timed step ends with the bytes it wrote fsynced, the same
// guarantee lakelet's nodeFsStorage gives (temp file fsynced, renamed, directory fsynced).
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** fsync one file or directory by path (directories are opened read-only, as fsync(2) allows on Linux). */
export async function fsyncPath(path) {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** fsync every file and directory under `dir` (and `dir` itself); returns the files synced and their bytes. */
export async function fsyncTree(dir) {
  let files = 0;
  let bytes = 0;
  const walk = async (d) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) {
        const fh = await open(p, 'r');
        try {
          bytes += (await fh.stat()).size;
          await fh.sync();
        } finally {
          await fh.close();
        }
        files++;
      }
    }
    await fsyncPath(d);
  };
  await walk(dir);
  return { files, bytes };
}

/** Write `bytes` to a new file and fsync it before closing (the caller fsyncs the directory once at the end). */
export async function writeFileSynced(path, bytes) {
  const fh = await open(path, 'wx');
  try {
    await fh.writeFile(bytes);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Wall and CPU seconds (user + system, all threads of this process) of one async call, with its result. */
export async function timedStep(fn) {
  if (typeof globalThis.gc === 'function') globalThis.gc();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await fn();
  const seconds = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  return { out, seconds, cpuSeconds: (c.user + c.system) / 1e6 };
}
