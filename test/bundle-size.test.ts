// The weight of a small app: openTable + rows() + upsert(plain objects) on OPFS, bundled for the browser with
// rolldown (minified, tree-shaken). Counted: every chunk the app can load except the lazy ones it never needs
// (Arrow, only for Arrow output or input; hyparquet-compressors, only for ZSTD/BROTLI/LZ4 files); .wasm aside.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type OutputChunk } from 'rolldown';
import { describe, expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const WORK = join(ROOT, 'node_modules', '.cache', 'lakelet-bundle-size');
/** The goal of issue 12: at most this many gzip bytes of JavaScript, WASM not included. */
const LIMIT = 150 * 1024;

const APP = `import { openTable, opfsStorage } from ${JSON.stringify(join(ROOT, 'src', 'index.ts'))};
export async function run(name) {
  const table = await openTable(await opfsStorage(name));
  const rows = [];
  for await (const row of table.rows({ limit: 100 })) rows.push(row);
  await table.upsert([{ id: 'a', ts: 1, city: 'sf' }]);
  return rows;
}
`;

/** Chunks loaded only on demand for what this app never does, by the module that starts them. */
const LAZY_UNUSED: { name: string; facade: RegExp }[] = [
  { name: 'arrow', facade: /src\/arrow\/arrow\.ts$/ },
  { name: 'hyparquet-compressors', facade: /node_modules\/hyparquet-compressors\// },
  // The metadata-table code (HFile, MDT records, column stats, MDT services): loaded only for tables with a metadata table.
  { name: 'metadata-table', facade: /src\/engine\/metadata\/lazy\.ts$/ },
  // The catalog step (catalog/catalog-sync.ts): loaded only by writes with catalogSync or syncTo.
  { name: 'catalog', facade: /src\/catalog\/catalog-sync\.ts$/ },
  // Commit notifications: the event builder (only with onCommit listeners or a callback) and the HTTP callback (only with commitCallback).
  { name: 'commit-event', facade: /src\/engine\/commit\/commit-event\.ts$/ },
  { name: 'commit-callback', facade: /src\/engine\/commit\/write-callback\.ts$/ },
  // Clustering (table.cluster, inline clustering): loaded only when a clustering runs.
  { name: 'clustering', facade: /src\/engine\/services\/clustering\.ts$/ },
  // The schema history and its schema diff (table/schema-history.ts): loaded only by schemaHistory().
  { name: 'schema-history', facade: /src\/table\/schema-history\.ts$/ },
  // The timestamp key generator's date formatting (keygen/timestamp-key-generator.ts): loaded only for tables that use it.
  { name: 'timestamp-keygen', facade: /src\/keygen\/timestamp-key-generator\.ts$/ },
  // The change queries (table.changes / changeRows / changesArrow, table.history): table/record-changes.ts.
  { name: 'record-changes', facade: /src\/table\/record-changes\.ts$/ },
  // lakelet's own record index (.aux, RECORD_INDEX on tables without an MDT record index): loaded only by writes that use it.
  { name: 'record-index', facade: /src\/engine\/write\/record-index\.ts$/ },
  // Restore (table.restore, and finishing or sweeping a restore): loaded only when the timeline has a restore instant.
  { name: 'restore', facade: /src\/engine\/services\/restore\.ts$/ },
  // DELETE log blocks (format/log/delete-block.ts, with the Kryo decoder of old Hudi's): loaded only to read or write one.
  { name: 'delete-block', facade: /src\/format\/log\/delete-block\.ts$/ },
  // The CDC logger (engine/write/cdc-logger.ts): loaded only by merges into CDC-enabled tables.
  { name: 'cdc-logger', facade: /src\/engine\/write\/cdc-logger\.ts$/ },
  // The compaction runner (engine/services/compaction-run.ts): loaded only when a merge-on-read table has a plan to run.
  { name: 'compaction-run', facade: /src\/engine\/services\/compaction-run\.ts$/ },
  // Rollback (engine/services/rollback.ts): loaded only when the timeline has a pending write or rollback, or by table.rollback.
  { name: 'rollback', facade: /src\/engine\/services\/rollback\.ts$/ },
  { name: 'rollback-latest', facade: /src\/engine\/services\/rollback-latest\.ts$/ },
  // The worker transport (comlink, worker/worker-transport.ts): loaded only when a task goes to a worker, not for inline work.
  { name: 'worker-transport', facade: /src\/worker\/worker-transport\.ts$/ },
];

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

describe('bundle size', () => {
  test('openTable + rows + upsert on OPFS: at most 150 KB gzip of JavaScript, Arrow never bundled in', async () => {
    mkdirSync(WORK, { recursive: true });
    writeFileSync(join(WORK, 'app.js'), APP);
    const out = await build({ input: join(WORK, 'app.js'), platform: 'browser', write: false, logLevel: 'silent', output: { format: 'es', minify: true } });
    const chunks = new Map(out.output.filter((o): o is OutputChunk => o.type === 'chunk').map((c) => [c.fileName, c]));
    // A lazy chunk: the one its module starts (its facade), or, when that module is also imported statically by
    // another lazy chunk (rolldown then gives it no facade), the chunk holding it.
    const lazy = (c: OutputChunk) => LAZY_UNUSED.find((l) => (c.facadeModuleId === null ? c.moduleIds.some((m) => l.facade.test(m)) : l.facade.test(c.facadeModuleId)));
    // Walk from the entry over static and dynamic imports, stopping at the lazy chunks this app never loads when
    // they are reached by a dynamic import (a static import from a counted chunk counts them).
    const entry = [...chunks.values()].find((c) => c.isEntry) as OutputChunk;
    const counted = new Set<OutputChunk>();
    const skipped = new Map<string, number>();
    const walk = (c: OutputChunk, dynamic: boolean) => {
      if (counted.has(c)) return;
      const l = lazy(c);
      if (l && dynamic) {
        skipped.set(l.name, gzipSync(c.code).length);
        return;
      }
      if (l) skipped.delete(l.name); // reached by a static import after all: counted
      counted.add(c);
      for (const f of c.imports) {
        const next = chunks.get(f);
        if (next) walk(next, false);
      }
      for (const f of c.dynamicImports) {
        const next = chunks.get(f);
        if (next) walk(next, true);
      }
    };
    walk(entry, false);
    let gzip = 0;
    let minified = 0;
    for (const c of counted) {
      gzip += gzipSync(c.code).length;
      minified += c.code.length;
    }
    console.log(`bundle-size: openTable+rows+upsert on OPFS = ${kb(gzip)} gzip (${kb(minified)} minified, ${counted.size} chunks); lazy, not loaded: ${[...skipped].map(([n, b]) => `${n} ${kb(b)} gzip`).join(', ')}; WASM not counted`);
    // Arrow and the extra decompressors exist as lazy chunks, and nothing counted holds them.
    expect([...skipped.keys()].sort()).toEqual(['arrow', 'catalog', 'cdc-logger', 'clustering', 'commit-callback', 'commit-event', 'compaction-run', 'delete-block', 'hyparquet-compressors', 'metadata-table', 'record-changes', 'record-index', 'restore', 'rollback', 'rollback-latest', 'schema-history', 'timestamp-keygen', 'worker-transport']);
    const countedModules = [...counted].flatMap((c) => Object.keys(c.modules));
    expect(countedModules.filter((m) => m.includes('node_modules/apache-arrow/') || m.includes('node_modules/hyparquet-compressors/'))).toEqual([]);
    expect(gzip).toBeLessThanOrEqual(LIMIT);
  });
});
