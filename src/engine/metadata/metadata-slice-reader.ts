// Reading one metadata file slice into its merged records: the base HFile (through ranged reads: point and
// prefix lookups read only the blocks they need) and then each log file's valid blocks in order — HFILE_DATA
// blocks (an HFile of upserts) and DELETE blocks — folded with HoodieMetadataPayload's rules
// (metadata/metadata-merge.ts). Blocks of instants the MDT does not trust, or named by a rollback block, are skipped.
import { corruptFile } from '../../errors.js';
import { HFileReader, type HFileSource } from '../../format/hfile/reader.js';
import type { HFileEntry } from '../../format/hfile/key-value.js';
import { scanLogBlocks, type LogBlock } from '../../format/log/block.js';
import { decodeDeleteBlock } from '../../format/log/delete-block.js';
import type { MetadataFileSlice } from '../../metadata/metadata-file-slices.js';
import { MetadataRecordMerger } from '../../metadata/metadata-merge.js';
import { decodeMetadataRecord, type HoodieMetadataRecord } from '../../metadata/metadata-record.js';
import { recogniseMetadataSchema, type MetadataSchemaKind } from '../../metadata/metadata-schema.js';
import type { Storage } from '../../storage/storage.js';
import type { MetadataTable } from './metadata-table.js';

/** Which records of a slice to read: all, the given keys (point lookups), or the keys starting with a prefix. */
export type MetadataKeyFilter = { kind: 'all' } | { kind: 'keys'; keys: readonly string[] } | { kind: 'prefix'; prefix: string };

/** Ranged reads of a stored file, for HFiles too large to fetch whole. */
function storageSource(storage: Storage, path: string, size: number): HFileSource {
  return { byteLength: size, read: (offset, length) => storage.read(path, { start: offset, end: offset + length }) };
}

/** The entries of an HFile the filter asks for. */
async function filteredEntries(reader: HFileReader, filter: MetadataKeyFilter): Promise<HFileEntry[]> {
  if (filter.kind === 'keys') return [...(await reader.getMany(filter.keys)).values()];
  if (filter.kind === 'prefix') return reader.getPrefix(filter.prefix);
  const out: HFileEntry[] = [];
  for await (const e of reader.entries()) out.push(e);
  return out;
}

function decodeEntries(entries: readonly HFileEntry[], kind: MetadataSchemaKind, path: string): HoodieMetadataRecord[] {
  return entries.map((e) => decodeMetadataRecord(e.key, e.value, { ...kind, path: `${path} (key ${JSON.stringify(e.key)})` }));
}

/** The schema an MDT HFile's records are written with (its `schema` file info, else the log block's SCHEMA header). */
function schemaOf(reader: HFileReader, header: string | undefined, path: string, version: number): MetadataSchemaKind {
  const text = reader.fileInfoText('schema') ?? header;
  if (text === undefined) throw corruptFile('metadata: HFile has no schema (neither a schema file-info entry nor a SCHEMA header)', path);
  const kind = recogniseMetadataSchema(text, path);
  if (kind.version !== version) throw corruptFile(`metadata: HFile records use the v${kind.version} metadata schema in a v${version} table`, path);
  return kind;
}

/**
 * Does a log block count: a data or delete block of a committed MDT instant (completed, or older than the active
 * timeline: archived — Hudi's containsOrBeforeTimelineStarts) that the MDT trusts and no rollback block names?
 */
function counts(block: LogBlock, mdt: MetadataTable, rolledBack: ReadonlySet<string>): boolean {
  if (block.type !== 'HFILE_DATA' && block.type !== 'DELETE') return false;
  const t = block.header.INSTANT_TIME ?? '';
  return mdt.timeline.isCommittedWrite(t) && mdt.isValidInstant(t) && !rolledBack.has(t);
}

/**
 * The merged records of one MDT file slice that `filter` selects, sorted by key. Corrupt log regions →
 * `CORRUPT_FILE` naming the log (the MDT is derived data: a reader falls back to listing storage rather than
 * trusting a damaged index).
 */
export async function readMetadataSlice(mdt: MetadataTable, slice: MetadataFileSlice, filter: MetadataKeyFilter = { kind: 'all' }): Promise<HoodieMetadataRecord[]> {
  const merger = new MetadataRecordMerger();
  if (slice.baseFile) {
    const { path, size } = slice.baseFile;
    const reader = await HFileReader.open(storageSource(mdt.storage, path, size), { path });
    merger.upsert(decodeEntries(await filteredEntries(reader, filter), schemaOf(reader, undefined, path, mdt.version), path));
  }
  const scans = await Promise.all(slice.logFiles.map(async (log) => ({ path: log.path, scan: scanLogBlocks(await mdt.storage.read(log.path), log.path) })));
  const rolledBack = new Set<string>();
  for (const { path, scan } of scans) {
    const bad = scan.corrupt[0];
    if (bad) throw corruptFile(`metadata: log block at byte ${bad.offset} is corrupt (${bad.reason})`, path, bad.offset);
    for (const b of scan.blocks) if (b.type === 'COMMAND' && b.header.TARGET_INSTANT_TIME) rolledBack.add(b.header.TARGET_INSTANT_TIME);
  }
  const wanted = filter.kind === 'keys' ? new Set(filter.keys) : undefined;
  const selected = (key: string | null): key is string => key !== null && (filter.kind === 'all' || (filter.kind === 'keys' ? wanted?.has(key) === true : key.startsWith(filter.prefix)));
  for (const { path, scan } of scans) {
    for (const block of scan.blocks) {
      if (!counts(block, mdt, rolledBack)) continue;
      if (block.type === 'DELETE') {
        merger.delete(decodeDeleteBlock(block, path).map((d) => d.recordKey).filter(selected));
        continue;
      }
      const where = `${path} (block at byte ${block.offset})`;
      const reader = await HFileReader.open(block.content, { path: where });
      merger.upsert(decodeEntries(await filteredEntries(reader, filter), schemaOf(reader, block.header.SCHEMA, where, mdt.version), where));
    }
  }
  return merger.result();
}
