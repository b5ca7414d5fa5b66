// The validator's view of the metadata table: every MDT partition's latest file slices with their merged records
// (full scans, read once per validation run and shared by the checks).
import type { HoodieMetadataRecord } from '../../metadata/metadata-record.js';
import type { MetadataFileSlice } from '../../metadata/metadata-file-slices.js';
import { readMetadataSlice } from '../metadata/metadata-slice-reader.js';
import type { MetadataTable } from '../metadata/metadata-table.js';

/** One MDT file slice and its merged records. */
export interface SliceRecords {
  slice: MetadataFileSlice;
  records: HoodieMetadataRecord[];
}

/** Cached full scans of an opened metadata table's partitions. */
export class MetadataRecords {
  private readonly cache = new Map<string, Promise<SliceRecords[]>>();

  constructor(readonly mdt: MetadataTable) {}

  /** The latest slices of `partition` (sorted by file id) with their merged records. */
  of(partition: string): Promise<SliceRecords[]> {
    let p = this.cache.get(partition);
    if (!p) {
      p = (async () => {
        const slices = await this.mdt.latestSlices(partition);
        return Promise.all(slices.map(async (slice) => ({ slice, records: await readMetadataSlice(this.mdt, slice) })));
      })();
      this.cache.set(partition, p);
    }
    return p;
  }
}
