// HTTP requests of a snapshot listed through the metadata table vs through storage (issue 10's "≥ 5× fewer
// requests" line), on a v9 table with an MDT and many partitions: a copy of the v9 COW fixture
// (yyyy/MM/dd/HH partitions) plus `--partitions N` new partitions upserted by lakelet's writer (which keeps the
// MDT), served by nginx on loopback twice — with a published listing manifest, and bare (JSON autoindex). Prints
// the requests of planning the snapshot (open + fileSlices) and of reading every row, per mode, and the ratios.
// Usage: npm run -s build && node bench/mdt-listing.mjs [--partitions 200] [--json]
// Bare nginx hides dot-files, and the MDT's log files are dot-named: there the metadata listing is refused as
// incomplete and the read falls back to storage (reported as "fell back"); the MDT figure over bare nginx is
// therefore given as its request count over the manifest plus the two folder listings nginx would need.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nginxAvailable, startNginx } from './nginx.mjs';

const argv = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const extra = flag('--partitions', 200);
const asJson = argv.includes('--json');
const dist = process.env.LAKELET_DIST ? `${pathToFileURL(resolve(process.env.LAKELET_DIST)).href}/` : new URL('../dist/', import.meta.url).href;
const lakelet = await import(new URL('node/index.js', dist).href);
const fixtures = resolve(process.env.LAKELET_FIXTURES ?? fileURLToPath(new URL('../../shared/fixtures/hudi-rs', import.meta.url)));
const log = (msg) => process.stderr.write(`  [mdt-listing] ${msg}\n`);

if (!nginxAvailable()) {
  console.log(asJson ? JSON.stringify({ skipped: 'nginx not installed' }) : 'mdt-listing: skipped (nginx not installed)');
  process.exit(0);
}

/** The fixture with `extra` new hourly partitions (one row each), in memory. */
async function buildTable() {
  const zip = lakelet.zipStorage(new Uint8Array(readFileSync(join(fixtures, 'sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip'))));
  const source = await lakelet.tableStorage(zip);
  const files = [];
  for (const f of await source.list('', { recursive: true })) files.push([f.path, await source.read(f.path)]);
  const mem = lakelet.memoryStorage({ files });
  const table = await lakelet.openTable(mem);
  const template = {};
  for await (const row of table.rows({ limit: 1 })) for (const [k, v] of Object.entries(row)) if (!k.startsWith('_hoodie_')) template[k] = v;
  const rows = Array.from({ length: extra }, (_, i) => ({ ...template, txn_id: `NEW-${String(i).padStart(5, '0')}`, ts_str: new Date(Date.UTC(2024, 1, 1 + Math.floor(i / 24), i % 24)).toISOString() }));
  await table.upsert(rows, { clean: { automatic: false }, archive: { automatic: false } });
  await table.close();
  return mem;
}

async function toDisk(storage, dir) {
  for (const f of await storage.list('', { recursive: true })) {
    const target = join(dir, ...f.path.split('/'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, await storage.read(f.path));
  }
}

/** Requests of planning a snapshot and of reading it, with `listing` ('metadata' | 'storage'). */
async function measure(url, httpListing, listing) {
  let n = 0;
  const fetchCounting = (u, init) => { n++; return fetch(u, init); };
  const warnings = [];
  const table = await lakelet.openTable(lakelet.httpStorage(url, { listing: httpListing, fetch: fetchCounting }), { listing });
  const slices = (await table.fileSlices()).length;
  const planned = n;
  let rows = 0;
  for await (const _ of table.rows({ onWarning: (w) => warnings.push(w.code) })) rows++;
  return { planned, total: n, slices, rows, fellBack: warnings.includes('METADATA_FALLBACK') };
}

const work = mkdtempSync(join(tmpdir(), 'lakelet-bench-mdt-'));
let nginx;
try {
  log(`building the table (fixture + ${extra} partitions)`);
  const mem = await buildTable();
  await toDisk(mem, join(work, 'published'));
  await lakelet.publishListing(join(work, 'published'));
  await toDisk(mem, join(work, 'plain'));
  nginx = await startNginx(work);
  const base = nginx.url.replace(/\/$/, '');
  const manifestMeta = await measure(`${base}/published/`, 'manifest', 'metadata');
  const manifestStorage = await measure(`${base}/published/`, 'manifest', 'storage');
  const foldersStorage = await measure(`${base}/plain/`, 'nginx-json', 'storage');
  const foldersMeta = await measure(`${base}/plain/`, 'nginx-json', 'metadata');
  const result = {
    partitions: manifestStorage.slices, // one file group per new partition; the fixture's 5 partitions hold 6
    manifest: { metadata: manifestMeta, storage: manifestStorage, ratio: manifestStorage.planned / manifestMeta.planned },
    nginxFolders: { storage: foldersStorage, metadata: foldersMeta, metadataIfVisible: manifestMeta.planned + 2, ratioIfVisible: foldersStorage.planned / (manifestMeta.planned + 2) },
  };
  if (asJson) console.log(JSON.stringify(result));
  else {
    const r = (x) => `${x.toFixed(2)}×`;
    console.log(`metadata-table listing over HTTP (nginx on loopback), ${result.partitions} file slices`);
    console.log(`  published manifest: plan ${manifestMeta.planned} requests via the MDT vs ${manifestStorage.planned} via the manifest (storage/MDT ${r(result.manifest.ratio)}); snapshot ${manifestMeta.total} vs ${manifestStorage.total}`);
    console.log(`  bare nginx folders: plan ${foldersStorage.planned} requests listing storage; the MDT ${foldersMeta.fellBack ? 'fell back to storage (its logs are dot-files nginx hides)' : 'was used'}: ${foldersMeta.planned}`);
    console.log(`  were the MDT logs visible: about ${result.nginxFolders.metadataIfVisible} requests (storage/MDT ${r(result.nginxFolders.ratioIfVisible)}; goal ≥ 5×: ${result.nginxFolders.ratioIfVisible >= 5 ? 'met' : 'NOT met'})`);
  }
} finally {
  await nginx?.stop();
  rmSync(work, { recursive: true, force: true });
}
