// The validator's `metadata-structure` check (hudi-v9-write.md §4.1, §4.2): `hoodie.table.metadata.partitions`
// names exactly the MDT partition folders (partitions still initialising, `…partitions.inflight`, aside); each
// hashed partition's file groups are numbered 0..n-1 without a gap and each owns a valid file (the count is
// found by listing, so a group without files re-hashes every key); every record sits in the file group its key
// hashes to; every completed MDT deltacommit belongs to a data instant that completed (or predates the data
// timeline, or is a partition initialisation). A deltacommit whose data instant is still pending is not reported:
// readers ignore it (Java's rule) and the data side's rollback removes it.
import { baseName, METADATA_TABLE_DIR } from '../../layout.js';
import { parseBaseFileName, parseLogFileName } from '../../file-group/file-names.js';
import { metadataFileGroupIndex } from '../../metadata/keys.js';
import { EXPRESSION_INDEX_PREFIX, isMetadataInitInstant, metadataFileGroupId, parseMetadataFileGroupId, parseMetadataPartitions, SECONDARY_INDEX_PREFIX } from '../../metadata/metadata-partitions.js';
import { compareInstantTimes } from '../../timeline/instant.js';
import type { TableState } from '../table-state.js';
import type { MetadataRecords } from './metadata-records.js';
import type { ValidationReport } from './validation-result.js';

const CHECK = 'metadata-structure';

/** The MDT partition folders that hold files, and each one's file ids (any file naming one). */
async function partitionFolders(state: TableState): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for (const f of await state.storage.list(METADATA_TABLE_DIR, { recursive: true })) {
    if (f.kind !== 'file') continue;
    const rest = f.path.slice(METADATA_TABLE_DIR.length + 1);
    const slash = rest.indexOf('/');
    if (slash < 0 || rest.startsWith('.')) continue; // the MDT's own .hoodie/ folder, files at the MDT root
    const partition = rest.slice(0, slash);
    const name = baseName(f.path);
    let ids = out.get(partition);
    if (!ids) out.set(partition, (ids = new Set()));
    const fileId = parseBaseFileName(name)?.fileId ?? parseLogFileName(name)?.fileId;
    if (fileId !== undefined) ids.add(fileId);
  }
  return out;
}

/** Partitions whose keys are placed by the hash of the whole key (secondary and expression indexes differ). */
const hashed = (p: string) => !p.startsWith(SECONDARY_INDEX_PREFIX) && !p.startsWith(EXPRESSION_INDEX_PREFIX);

/** `metadata-structure` (see the file header). */
export async function checkMetadataStructure(state: TableState, records: MetadataRecords, report: ValidationReport): Promise<void> {
  const { mdt } = records;
  const folders = await partitionFolders(state);
  const inflight = new Set(parseMetadataPartitions(state.config.properties.get('hoodie.table.metadata.partitions.inflight')));
  for (const p of mdt.partitions) if (!folders.has(p)) report.add(CHECK, `${METADATA_TABLE_DIR}/${p}`, `hoodie.table.metadata.partitions lists ${p}, but the metadata table has no files in it`);
  for (const p of folders.keys()) if (!mdt.partitions.includes(p) && !inflight.has(p)) report.add(CHECK, `${METADATA_TABLE_DIR}/${p}`, `the metadata table holds partition ${p}, which hoodie.table.metadata.partitions does not list (a stale index)`);

  for (const p of mdt.partitions) {
    const ids = folders.get(p);
    if (!ids || !hashed(p)) continue;
    const scanned = await records.of(p);
    const live = new Set(scanned.map((s) => s.slice.fileId));
    const numbers = new Map<number, string>();
    for (const id of new Set([...ids, ...live])) {
      const n = parseMetadataFileGroupId(p, id);
      if (n === undefined) report.add(CHECK, `${METADATA_TABLE_DIR}/${p}/${id}`, `file group ${id} is not a file group of the ${p} partition`);
      else if (!live.has(id)) report.add(CHECK, `${METADATA_TABLE_DIR}/${p}/${id}`, `file group ${id} owns no file of a valid instant`);
      else numbers.set(n, id);
    }
    const count = numbers.size === 0 ? 0 : Math.max(...numbers.keys()) + 1;
    let gaps = false;
    for (let i = 0; i < count; i++) {
      if (numbers.has(i)) continue;
      gaps = true;
      const id = metadataFileGroupId(p, i);
      if (!ids.has(id)) report.add(CHECK, `${METADATA_TABLE_DIR}/${p}/${id}`, `file group ${i} of ${count} owns no file (the group count is found by listing, so every key of ${p} would hash elsewhere)`);
    }
    if (gaps || count === 0) continue;
    for (const { slice, records: rs } of scanned) {
      const at = parseMetadataFileGroupId(p, slice.fileId) as number;
      for (const r of rs) {
        const want = metadataFileGroupIndex(r.key, count);
        if (want !== at) report.add(CHECK, r.key, `the ${p} key sits in file group ${slice.fileId}, but its hash picks ${metadataFileGroupId(p, want)}`);
      }
    }
  }

  const data = state.timeline;
  const start = data.instants[0]?.requestedTime;
  for (const i of mdt.timeline.completed()) {
    if (i.action !== 'deltacommit' || isMetadataInitInstant(i.requestedTime)) continue;
    const t = i.requestedTime;
    if (data.completedAt(t) !== undefined || (start !== undefined && compareInstantTimes(t, start) < 0)) continue;
    if (data.instants.some((d) => d.requestedTime === t)) continue; // pending on the data side: not trusted, rolled back later
    report.add(CHECK, t, `the metadata table's deltacommit ${t} has no data instant (the data timeline has no instant at that time)`);
  }
}
