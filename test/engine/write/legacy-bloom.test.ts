// Bloom pruning reads the bloom filter from Hudi's legacy footer key `com.uber.hoodie.bloomfilter` (files written
// before the Apache rename), inline and in a worker: a key inside the file's key range but not in its filter is
// pruned without reading the file's keys.
import { expect, test } from 'vitest';
import { memoryStorage } from '../../../src/storage/memory.js';
import { writeBaseFile } from '../../../src/format/parquet/write.js';
import { withMetaFields } from '../../../src/schema/table-schema.js';
import { parseAvroSchema, type AvroRecordSchema } from '../../../src/format/avro/schema.js';
import { readParquetFooter, bufferFromBytes } from '../../../src/format/parquet/read.js';
import { tagLocations } from '../../../src/engine/write/base-file-index.js';
import { createWorkerApi } from '../../../src/worker/worker-impl.js';
import { packKeys } from '../../../src/kernels/kernels.js';
import type { FileSlice } from '../../../src/file-group/file-slice.js';

const SCHEMA = withMetaFields(parseAvroSchema({ type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }] }) as AvroRecordSchema);

/** A SIMPLE-bloom base file (no type code, as old Hudi wrote it) with its filter under the legacy key. */
function legacyBloomFile(keys: readonly string[]): Uint8Array {
  const rows = keys.map((id, i) => ({
    _hoodie_commit_time: '20240101000000000', _hoodie_commit_seqno: `20240101000000000_0_${i}`, _hoodie_record_key: id,
    _hoodie_partition_path: '', _hoodie_file_name: 'f1_0-0-0_20240101000000000.parquet', id,
  }));
  const bytes = writeBaseFile(rows, { schema: SCHEMA, bloomFilter: { type: 'SIMPLE', numEntries: 100 } });
  // 'org.apache.hudi.bloomfilter' and 'com.uber.hoodie.bloomfilter' have the same length: rename in place.
  const from = new TextEncoder().encode('org.apache.hudi.bloomfilter');
  const to = new TextEncoder().encode('com.uber.hoodie.bloomfilter');
  let hits = 0;
  for (let i = bytes.length - from.length; i >= 0; i--) {
    if (from.every((b, j) => bytes[i + j] === b)) {
      bytes.set(to, i);
      hits++;
    }
  }
  if (hits !== 1) throw new Error(`expected one footer key, found ${hits}`);
  return bytes;
}

const KEYS = ['k10', 'k20', 'k30', 'k40'];
// Inside [k10, k40] but not in the file: only the bloom filter can prune it.
const ABSENT = ['k15', 'k25', 'k35'];

test('the legacy footer key really holds the filter (and the new key is absent)', async () => {
  const footer = await readParquetFooter(bufferFromBytes(legacyBloomFile(KEYS)), 'f1.parquet');
  expect(footer.keyValues['com.uber.hoodie.bloomfilter']).toBeDefined();
  expect(footer.keyValues['org.apache.hudi.bloomfilter']).toBeUndefined();
  expect(footer.keyValues.hoodie_bloom_filter_type_code).toBeUndefined();
});

test('inline BLOOM tagging prunes by a bloom filter under the legacy key (the file keys are not read)', async () => {
  const storage = memoryStorage();
  const bytes = legacyBloomFile(KEYS);
  await storage.write('f1_0-0-0_20240101000000000.parquet', bytes);
  const slice: FileSlice = {
    partitionPath: '', fileId: 'f1', baseInstantTime: '20240101000000000', logFiles: [],
    baseFile: { path: 'f1_0-0-0_20240101000000000.parquet', name: 'f1_0-0-0_20240101000000000.parquet', fileId: 'f1', partitionPath: '', instantTime: '20240101000000000', size: bytes.length },
  };
  let keyReads = 0;
  const readKeys = async (): Promise<string[]> => {
    keyReads++;
    return [...KEYS];
  };
  const absent = await tagLocations(storage, [slice], ABSENT.map((recordKey) => ({ recordKey, partitionPath: '' })), 'BLOOM', readKeys);
  expect(absent.size).toBe(0);
  expect(keyReads).toBe(0);
  const present = await tagLocations(storage, [slice], [{ recordKey: 'k20', partitionPath: '' }], 'BLOOM', readKeys);
  expect([...present.keys()]).toEqual(['\u0000k20']);
  expect(keyReads).toBe(1);
});

test('worker tagFile prunes by a bloom filter under the legacy key', async () => {
  const api = createWorkerApi({ kernels: 'js' });
  const file = legacyBloomFile(KEYS);
  const packed = packKeys([...ABSENT, 'k30']);
  const r = await api.tagFile({
    path: 'f1.parquet', file: file.slice().buffer as ArrayBuffer, keys: packed.bytes.slice().buffer as ArrayBuffer,
    offsets: packed.offsets.slice().buffer as ArrayBuffer, useBloom: true, exact: false,
  });
  expect(r.candidates).toBe(1);
  expect([...new Uint32Array(r.matched)]).toEqual([3]);
});
