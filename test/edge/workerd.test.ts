// The read path inside workerd (Cloudflare's runtime, through miniflare): lakelet's entry bundled for the
// browser platform with Node built-ins forbidden, run as a worker that reads a table from the nginx test
// server; snapshot, time travel and incremental rows must equal a Node read of the same zip.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { Miniflare } from 'miniflare';
import { build, type Plugin } from 'vite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTable } from '../../src/index.js';
import { publishListing } from '../../src/node/publish.js';
import { fixtureStorage } from '../helpers/fixtures.js';
import { tableReads, type TableReads } from '../helpers/table-reads.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BUILTINS = new Set(builtinModules);

/** Fails the build on any import of a Node built-in (`node:fs`, `fs`, `path`, …). */
function noNodeBuiltins(): Plugin {
  return {
    name: 'lakelet-no-node-builtins',
    enforce: 'pre',
    resolveId(id, importer) {
      if (id.startsWith('node:') || BUILTINS.has(id) || BUILTINS.has(id.split('/')[0] ?? '')) {
        this.error(`Node built-in ${JSON.stringify(id)} imported by ${importer ?? '(entry)'}: not allowed in the edge bundle`);
      }
      return null;
    },
  };
}

/** Bundle `entry` as one ES module for the browser platform (worker/browser export conditions). */
async function bundle(entry: string): Promise<string> {
  const result = await build({
    configFile: false,
    root: ROOT,
    logLevel: 'silent',
    plugins: [noNodeBuiltins()],
    resolve: { conditions: ['workerd', 'worker', 'browser', 'import', 'default'] },
    build: {
      write: false,
      target: 'es2022',
      minify: false,
      lib: { entry, formats: ['es'], fileName: 'worker' },
      rollupOptions: { output: { codeSplitting: false } },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  for (const out of outputs) {
    if (!('output' in out)) continue;
    const chunk = out.output.find((o) => o.type === 'chunk' && o.isEntry);
    if (chunk && chunk.type === 'chunk') return chunk.code;
  }
  throw new Error('edge bundle: no entry chunk');
}

const TABLES = ['sample_table/cow/v6_nonpartitioned.zip', 'sample_table/mor/parquet/v6_nonpartitioned.zip'];
const RUN = `edge-${Date.now().toString(36)}`;

describe('the read path in workerd (miniflare)', () => {
  let mf: Miniflare;
  const expected = new Map<string, TableReads>();

  beforeAll(async () => {
    const code = await bundle(join(ROOT, 'test/edge/worker-entry.ts'));
    expect(code).not.toMatch(/from\s+["']node:/);
    // No nodejs_compat flag: the worker gets only web-platform APIs (fetch, crypto.subtle, streams).
    mf = new Miniflare({ modules: true, script: code, compatibilityDate: '2025-09-01' });
    for (const zip of TABLES) {
      const source = await fixtureStorage(zip);
      expected.set(zip, await tableReads(await openTable(source)));
      const dir = join(inject('NGINX_ROOT'), RUN, zip.replace(/[/.]/g, '_'));
      for (const f of await source.list('', { recursive: true })) {
        const target = join(dir, ...f.path.split('/'));
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, await source.read(f.path));
      }
      await publishListing(dir);
    }
  }, 120_000);

  afterAll(async () => {
    await mf?.dispose();
  });

  it('the bundle guard rejects Node built-ins', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lakelet-edge-guard-'));
    writeFileSync(join(dir, 'bad.js'), "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n");
    await expect(bundle(join(dir, 'bad.js'))).rejects.toThrow(/Node built-in "node:fs"/);
  });

  // nginx's JSON index hides dot-files (merge-on-read log files), so MOR tables are read through the manifest only.
  const cases: [string, string][] = TABLES.flatMap((zip): [string, string][] => [[zip, 'manifest'], [zip, 'auto'], ...(zip.includes('/mor/') ? [] : [[zip, 'nginx-json'] as [string, string]])]);
  it.each(cases)(
    '%s through %s listing: the same rows as Node', async (zip, listing) => {
      const url = `${inject('NGINX_URL')}/${RUN}/${zip.replace(/[/.]/g, '_')}`;
      const res = await mf.dispatchFetch(`http://edge.test/?url=${encodeURIComponent(url)}&listing=${listing}`);
      const body = (await res.json()) as { runtime?: string; reads?: TableReads; error?: string };
      expect(body.error).toBeUndefined();
      expect(res.status).toBe(200);
      expect(body.runtime).toBe('Cloudflare-Workers');
      expect(body.reads).toEqual(expected.get(zip));
    });
});
