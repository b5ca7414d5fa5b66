// Savepoint timeline files of v6 tables (hudi-format.md §3.3, §12.9): `<t>.savepoint.inflight` is empty and
// the completed `<t>.savepoint` is Avro HoodieSavepointMetadata naming the files the savepoint protects.
import { corruptFile } from '../errors.js';
import { partitionFilePath } from '../layout.js';
import { readAvroContainer, writeAvroContainer } from '../format/avro/container.js';
import type { TimelineAvroOptions } from './rollback-metadata.js';

/**
 * `HoodieSavepointMetadata` writer schema as Java's `Schema.toString()` renders Hudi's
 * `HoodieSavePointMetadata.avsc` (strings carry `"avro.java.string":"String"`, like the other timeline files).
 */
export const SAVEPOINT_METADATA_SCHEMA = {
  type: 'record',
  name: 'HoodieSavepointMetadata',
  namespace: 'org.apache.hudi.avro.model',
  fields: [
    { name: 'savepointedBy', type: { type: 'string', 'avro.java.string': 'String' } },
    { name: 'savepointedAt', type: 'long' },
    { name: 'comments', type: { type: 'string', 'avro.java.string': 'String' } },
    {
      name: 'partitionMetadata',
      type: {
        type: 'map',
        values: {
          type: 'record',
          name: 'HoodieSavepointPartitionMetadata',
          fields: [
            { name: 'partitionPath', type: { type: 'string', 'avro.java.string': 'String' } },
            {
              name: 'savepointDataFile',
              type: { type: 'array', items: { type: 'string', 'avro.java.string': 'String' } },
            },
          ],
        },
        'avro.java.string': 'String',
      },
    },
    { name: 'version', type: ['int', 'null'], default: 1 },
  ],
} as const;

/** The files one partition's savepoint protects (`HoodieSavepointPartitionMetadata`). */
export interface SavepointPartitionMetadata {
  partitionPath: string;
  /**
   * File **names** (no partition folder), as Hudi writes them: the base file and log files of every latest
   * file slice of the partition as of the savepointed instant. The path is `partitionPath/name`
   * (just `name` in a non-partitioned table).
   */
  savepointDataFile: string[];
}

/** The completed `<t>.savepoint`. */
export interface SavepointMetadata {
  savepointedBy: string;
  /** When the savepoint was taken, epoch **milliseconds** (Hudi writes `System.currentTimeMillis()`). */
  savepointedAt: number;
  comments: string;
  /** Partition path (`""` for a non-partitioned table) → its protected files. */
  partitionMetadata: Record<string, SavepointPartitionMetadata>;
  /** Metadata version (Hudi writes 1). */
  version: number;
}

/** Input of {@link serializeSavepointMetadata}; `version` defaults to 1. */
export type SavepointMetadataInput = Omit<SavepointMetadata, 'version'> & { version?: number };

const SCHEMA_JSON = JSON.stringify(SAVEPOINT_METADATA_SCHEMA);

/** Serialize `<t>.savepoint` (Avro object container, null codec, one record). */
export function serializeSavepointMetadata(md: SavepointMetadataInput, options: TimelineAvroOptions = {}): Uint8Array {
  const partitionMetadata: Record<string, unknown> = {};
  for (const [p, m] of Object.entries(md.partitionMetadata)) {
    partitionMetadata[p] = { partitionPath: m.partitionPath, savepointDataFile: [...m.savepointDataFile] };
  }
  const record = {
    savepointedBy: md.savepointedBy,
    savepointedAt: md.savepointedAt,
    comments: md.comments,
    partitionMetadata,
    version: md.version ?? 1,
  };
  return writeAvroContainer(SCHEMA_JSON, [record], options.syncMarker === undefined ? {} : { syncMarker: options.syncMarker });
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Parse a completed `<t>.savepoint`. Files written by any Hudi version parse (the writer schema travels
 * in the file; a missing `version` reads as 1, null strings as `""`); bad shapes → `CORRUPT_FILE` naming
 * `path` and the field.
 */
export function parseSavepointMetadata(bytes: Uint8Array, path: string): SavepointMetadata {
  const { records } = readAvroContainer(bytes, path);
  if (records.length !== 1) throw corruptFile(`savepoint: expected one record, found ${records.length}`, path);
  const r = records[0];
  if (!isRecord(r)) throw corruptFile('savepoint: the record is not a record', path);
  const str = (v: unknown, field: string): string => {
    if (typeof v === 'string') return v;
    if (v === null || v === undefined) return '';
    throw corruptFile(`savepoint: ${field} is not a string`, path);
  };
  let savepointedAt: number;
  if (typeof r.savepointedAt === 'bigint') savepointedAt = Number(r.savepointedAt);
  else if (typeof r.savepointedAt === 'number') savepointedAt = r.savepointedAt;
  else throw corruptFile('savepoint: savepointedAt is not a long', path);
  const pm = r.partitionMetadata ?? {};
  if (!isRecord(pm)) throw corruptFile('savepoint: partitionMetadata is not a map', path);
  const partitionMetadata: Record<string, SavepointPartitionMetadata> = {};
  for (const [p, x] of Object.entries(pm)) {
    const at = `partitionMetadata[${JSON.stringify(p)}]`;
    if (!isRecord(x)) throw corruptFile(`savepoint: ${at} is not a record`, path);
    const files = x.savepointDataFile ?? [];
    if (!Array.isArray(files)) throw corruptFile(`savepoint: ${at}.savepointDataFile is not a list`, path);
    partitionMetadata[p] = {
      partitionPath: x.partitionPath === null || x.partitionPath === undefined ? p : str(x.partitionPath, `${at}.partitionPath`),
      savepointDataFile: files.map((f, i) => {
        if (typeof f !== 'string') throw corruptFile(`savepoint: ${at}.savepointDataFile[${i}] is not a string`, path);
        return f;
      }),
    };
  }
  let version = 1;
  if (typeof r.version === 'number') version = r.version;
  else if (r.version !== null && r.version !== undefined) throw corruptFile('savepoint: version is not an int', path);
  return { savepointedBy: str(r.savepointedBy, 'savepointedBy'), savepointedAt, comments: str(r.comments, 'comments'), partitionMetadata, version };
}

/**
 * The table-relative paths a savepoint protects (`partition/name`, or `name` in the root partition):
 * what a cleaner must never delete while the savepoint exists.
 */
export function savepointedFilePaths(md: SavepointMetadata): string[] {
  const out: string[] = [];
  for (const [p, m] of Object.entries(md.partitionMetadata)) {
    const partition = m.partitionPath || p;
    for (const name of m.savepointDataFile) out.push(partitionFilePath(partition, name));
  }
  return out.sort();
}
