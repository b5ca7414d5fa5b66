// record_index entries: a UUID-based file id as Java's signed UUID halves plus the -N index (encoding 0), other
// ids raw (encoding 1), back to the file id; instant times as epoch millis in the timeline's zone; deletes.
import { describe, expect, it } from 'vitest';
import { instantEpochMillis, instantEpochMillisInZone, recordIndexDelete, recordIndexFileId, recordIndexInfo, recordIndexRecord } from '../../src/metadata/record-index.js';

describe('record index entries', () => {
  it('splits a <uuid>-<N> file id into signed halves and the index, and joins them back', () => {
    const info = recordIndexInfo('2024/01/15/10', '5aa8d873-d341-4a43-aef0-51c33fec06f1-3', 1);
    // Most significant 64 bits 0x5aa8d873d3414a43 (positive), least 0xaef051c33fec06f1 (negative as a Java long).
    expect(info.fileIdHighBits).toBe(0x5aa8d873d3414a43n);
    expect(info.fileIdLowBits).toBe(0xaef051c33fec06f1n - 2n ** 64n);
    expect(info.fileIndex).toBe(3);
    expect(info.fileId).toBe('');
    expect(info.fileIdEncoding).toBe(0);
    expect(info.partitionName).toBe('2024/01/15/10');
    expect(recordIndexFileId(info)).toBe('5aa8d873-d341-4a43-aef0-51c33fec06f1-3');
  });

  it('keeps a bare UUID without a suffix (fileIndex -1) and other ids raw (encoding 1)', () => {
    const bare = recordIndexInfo('', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 5);
    expect(bare.fileIdHighBits).toBe(-1n);
    expect(bare.fileIndex).toBe(-1);
    expect(recordIndexFileId(bare)).toBe('ffffffff-ffff-ffff-ffff-ffffffffffff');
    const raw = recordIndexInfo('p', 'my-file-group', 5);
    expect(raw).toMatchObject({ fileIdEncoding: 1, fileId: 'my-file-group', fileIdHighBits: -1n, fileIdLowBits: -1n, fileIndex: -1 });
    expect(recordIndexFileId(raw)).toBe('my-file-group');
    expect(() => recordIndexInfo('p', '', 5)).toThrow(/needs a file id/);
    expect(() => recordIndexFileId({ ...raw, fileIdEncoding: 2 })).toThrow(expect.objectContaining({ code: 'CORRUPT_FILE' }));
  });

  it('reads instant times as epoch millis in the timeline timezone', () => {
    expect(instantEpochMillis('20260403183837738')).toBe(Date.UTC(2026, 3, 3, 18, 38, 37, 738));
    // A table written at UTC-6: local 18:38 is 00:38 UTC the next day.
    expect(instantEpochMillis('20260403183837738', -360)).toBe(Date.UTC(2026, 3, 4, 0, 38, 37, 738));
    expect(instantEpochMillisInZone('20260403183837738', 'UTC')).toBe(Date.UTC(2026, 3, 3, 18, 38, 37, 738));
    // LOCAL (or unset): the wall-clock time in this runtime's zone, i.e. UTC shifted by the zone's offset then.
    const offsetMinutes = new Date(Date.UTC(2026, 3, 3, 18, 38, 37, 738)).getTimezoneOffset();
    expect(instantEpochMillisInZone('20260403183837738', undefined) - Date.UTC(2026, 3, 3, 18, 38, 37, 738)).toBe(offsetMinutes * 60_000);
    expect(() => instantEpochMillisInZone('20260403183837738', 'Europe/Paris')).toThrow(expect.objectContaining({ code: 'UNSUPPORTED' }));
  });

  it('builds upsert records and DELETE-block records', () => {
    const r = recordIndexRecord('TXN-001', 'p', '5aa8d873-d341-4a43-aef0-51c33fec06f1-0', 42);
    expect(r.type).toBe(5);
    expect(r.key).toBe('TXN-001');
    expect(r.recordIndexMetadata?.instantTime).toBe(42);
    expect(recordIndexDelete('TXN-001')).toEqual({ recordKey: 'TXN-001', partitionPath: 'record_index', orderingVal: 0, orderingValType: 'int' });
  });
});
