// table.history(key) reads only the file groups that can hold the key: an unrelated group is read at most by
// its base files' footers (the bloom filter and key range rule it out), never its data or log files; with
// `partition` other partitions are not read at all. Counted with a wrapper storage that records every read.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable, type Storage, type TableType } from '../../src/index.js';
import { readParquetFooter } from '../../src/format/parquet/read.js';
import { storageBuffer } from '../../src/storage/async-buffer.js';
import { CDC_SCHEMA as SCHEMA, row } from '../helpers/cdc-model.js';

/** A storage that records the path and range of every read while `on`. */
function countingStorage(inner: Storage): { storage: Storage; reads: string[]; on: boolean } {
  const probe = { storage: inner, reads: [] as string[], on: false };
  probe.storage = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'read') {
        return (path: string, range?: { start: number; end: number }) => {
          if (probe.on) probe.reads.push(`${path}@${range ? `${range.start}-${range.end}` : 'all'}`);
          return target.read(path, range);
        };
      }
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return probe;
}

/** The reads a bare footer read of a base file makes (what the bloom check may cost an unrelated group). */
async function footerReads(inner: Storage, path: string): Promise<string[]> {
  const probe = countingStorage(inner);
  probe.on = true;
  const size = (await inner.head(path)).size;
  await readParquetFooter(await storageBuffer(probe.storage, path, size), path);
  return probe.reads;
}

for (const version of [6, 9] as const) {
  for (const type of ['COPY_ON_WRITE', 'MERGE_ON_READ'] as const satisfies readonly TableType[]) {
    describe(`history reads: ${type} table version ${version}`, () => {
      test('unrelated file groups: footers at most, no data or log file reads; none with the partition given', async () => {
        const memory = memoryStorage();
        const writer = await createTable(memory, { name: 'h', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, tableVersion: version, index: 'BLOOM', metadataTable: false, compaction: { inline: false } });
        await writer.upsert([row('k1', 'p', 1, 'a'), row('a1', 'q', 1, 'a'), row('z1', 'q', 1, 'a')]);
        await writer.upsert([row('k1', 'p', 2, 'b'), row('a1', 'q', 2, 'b')]);
        await writer.upsert([row('z1', 'q', 3, 'c')]);
        await writer.delete(['k1']);
        // The unrelated keys bracket k1, so only the bloom filter (not the key range or row-group stats) rules their group out.
        const probe = countingStorage(memory);
        const table = await openTable(probe.storage);
        const unrelated = (await table.storage.list('part=q', { recursive: true })).filter((f) => f.kind === 'file' && !f.path.includes('.hoodie_partition_metadata'));
        expect(unrelated.some((f) => f.path.includes('.log.')), 'the unrelated group has log files').toBe(type === 'MERGE_ON_READ');
        probe.on = true;
        const h = await table.history('k1');
        probe.on = false;
        expect(h.versions.map((v) => v.op)).toEqual(['delete', 'update', 'insert']);
        const allowed = new Set<string>();
        for (const f of unrelated) if (f.path.endsWith('.parquet')) for (const r of await footerReads(memory, f.path)) allowed.add(r);
        const touched = probe.reads.filter((r) => r.startsWith('part=q/'));
        expect(touched.length, 'the bloom check read the unrelated footers').toBeGreaterThan(0);
        expect(touched.filter((r) => !allowed.has(r)), 'reads of the unrelated group beyond its footers').toEqual([]);
        expect(probe.reads.some((r) => r.startsWith('part=p/')), 'the key\'s group was read').toBe(true);

        probe.reads.length = 0;
        probe.on = true;
        const narrowed = await table.history('k1', { partition: 'part=p' });
        probe.on = false;
        expect(narrowed).toEqual(h);
        expect(probe.reads.filter((r) => r.startsWith('part=q/')), 'no read of another partition').toEqual([]);
      });
    });
  }
}
