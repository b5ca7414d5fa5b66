// `lakelet inspect`: what a table is (config), what happened to it (every instant of the active timeline,
// pending instants, savepoints, how far back it is readable), how its schema evolved and which files its
// latest snapshot reads.
import { avroSchemaToJson, META_FIELDS, type SchemaChange, type Table } from '../index.js';
import { plural } from './output.js';

/** The help text of `lakelet inspect`. */
export const INSPECT_USAGE = `Usage: lakelet inspect <table> [--json]

Prints the table's config (name, type, version, timeline layout, record key,
ordering and partition fields, key generator, merge mode, meta fields), every
instant of the active timeline (requested time, action, state, completion time),
the pending instants (requested or inflight: writes, compactions, cleans, ...),
the savepoints, the oldest instant time travel can still read (after a clean),
the schema history (each schema the completed writes of the active timeline
recorded, with the instant that introduced it, its number of data fields and
what changed from the previous one: added or removed columns, type changes
such as int -> long) and the file groups of the latest snapshot (partition,
file id, base file, log files, sizes).

Options:
  --json       one JSON document instead of text
  -h, --help   this help
`;

/** The JSON document `lakelet inspect --json` prints. */
export interface InspectReport {
  /** The path the table was opened from. */
  path: string;
  config: {
    name: string;
    databaseName: string | null;
    tableType: string;
    version: number;
    timelineLayoutVersion: number;
    recordKeyFields: string[];
    orderingFields: string[];
    partitionFields: string[];
    hiveStylePartitioning: boolean;
    keyGenerator: string | null;
    keyGeneratorType: string;
    recordMergeMode: string;
    populateMetaFields: boolean;
    baseFileFormat: string;
  };
  timeline: { requestedTime: string; action: string; state: string; completionTime: string | null; fileName: string }[];
  /** The instants of {@link InspectReport.timeline} not completed (REQUESTED or INFLIGHT), oldest first. */
  pending: { requestedTime: string; action: string; state: string }[];
  /** Completed savepoints, oldest first (who, when and why are null when the savepoint file cannot be read). */
  savepoints: { instant: string; savepointedBy: string | null; savepointedAt: string | null; comments: string | null }[];
  /** The oldest instant time travel can read and the clean that set it; null when the table was never cleaned. */
  oldestReadableInstant: { instant: string; clean: string } | null;
  /**
   * Each schema the active timeline's completed writes recorded, oldest first: the instant that introduced it,
   * its number of data fields (without `_hoodie_*` meta fields), the changes from the previous entry (empty for
   * the first) and the Avro schema as `table.avroSchema()` shows it.
   */
  schemaHistory: { instant: string; fields: number; changes: SchemaChange[]; schema: unknown }[];
  /** The slices a snapshot query of the latest state reads, by partition then file id. */
  fileSlices: {
    partitionPath: string;
    fileId: string;
    baseInstantTime: string;
    baseFile: { name: string; path: string; size: number; instantTime: string } | null;
    logFiles: { name: string; path: string; size: number; version: number; instantTime: string; completionTime: string | null }[];
    totalSize: number;
  }[];
  /** Totals over {@link InspectReport.fileSlices}. */
  totals: { partitions: number; fileGroups: number; baseFiles: number; logFiles: number; bytes: number };
}

/** Gather the inspect report of an open table. */
export async function inspectTable(table: Table, path: string): Promise<InspectReport> {
  const c = table.config;
  const slices = (await table.fileSlices())
    .slice()
    .sort((a, b) => cmp(a.partitionPath, b.partitionPath) || cmp(a.fileId, b.fileId))
    .map((s) => {
      const baseFile = s.baseFile ? { name: s.baseFile.name, path: s.baseFile.path, size: s.baseFile.size, instantTime: s.baseFile.instantTime } : null;
      const logFiles = s.logFiles.map((l) => ({ name: l.name, path: l.path, size: l.size, version: l.version, instantTime: l.instantTime, completionTime: l.completionTime ?? null }));
      const totalSize = (baseFile?.size ?? 0) + logFiles.reduce((n, l) => n + l.size, 0);
      return { partitionPath: s.partitionPath, fileId: s.fileId, baseInstantTime: s.baseInstantTime, baseFile, logFiles, totalSize };
    });
  const retention = await table.retention();
  const history = await table.schemaHistory();
  const meta: ReadonlySet<string> = new Set(META_FIELDS);
  const schemaHistory: InspectReport['schemaHistory'] = history.map((h) => ({
    instant: h.instant,
    fields: h.schema.fields.filter((f) => !meta.has(f.name)).length,
    changes: h.changes,
    schema: avroSchemaToJson(h.schema),
  }));
  const savepoints: InspectReport['savepoints'] = retention.savepoints.map((s) => ({
    instant: s.instant,
    savepointedBy: s.savepointedBy ?? null,
    savepointedAt: s.savepointedAt?.toISOString() ?? null,
    comments: s.comments ?? null,
  }));
  return {
    path,
    config: {
      name: c.name,
      databaseName: c.databaseName ?? null,
      tableType: c.tableType,
      version: c.version,
      timelineLayoutVersion: c.timelineLayoutVersion,
      recordKeyFields: c.recordKeyFields,
      orderingFields: c.orderingFields,
      partitionFields: c.partitionFields,
      hiveStylePartitioning: c.hiveStylePartitioning,
      keyGenerator: c.keyGenerator ?? null,
      keyGeneratorType: c.keyGeneratorType,
      recordMergeMode: c.recordMergeMode,
      populateMetaFields: c.populateMetaFields,
      baseFileFormat: c.baseFileFormat,
    },
    timeline: table.timeline.map((i) => ({ requestedTime: i.requestedTime, action: i.action, state: i.state, completionTime: i.completionTime ?? null, fileName: i.fileName })),
    pending: table.timeline.filter((i) => i.state !== 'COMPLETED').map((i) => ({ requestedTime: i.requestedTime, action: i.action, state: i.state })),
    savepoints,
    oldestReadableInstant: retention.oldestReadable ?? null,
    schemaHistory,
    fileSlices: slices,
    totals: {
      partitions: new Set(slices.map((s) => s.partitionPath)).size,
      fileGroups: slices.length,
      baseFiles: slices.filter((s) => s.baseFile).length,
      logFiles: slices.reduce((n, s) => n + s.logFiles.length, 0),
      bytes: slices.reduce((n, s) => n + s.totalSize, 0),
    },
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `1536` → `1.5 KiB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = -1;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

const listText = (xs: readonly string[]) => (xs.length === 0 ? '(none)' : xs.join(', '));

/** One line for a list of schema changes: `added extra (nullable string); n: nullable long → nullable double`. */
export function schemaChangesText(changes: readonly SchemaChange[]): string {
  if (changes.length === 0) return 'no field changes (docs, defaults or names only)';
  return changes
    .map((c) => (c.kind === 'added' ? `added ${c.field} (${c.type})` : c.kind === 'removed' ? `removed ${c.field} (${c.type})` : `${c.field}: ${c.from} -> ${c.to}`))
    .join('; ');
}

function savepointText(s: InspectReport['savepoints'][number]): string {
  const by = [s.savepointedBy === null ? '' : `by ${s.savepointedBy}`, s.savepointedAt === null ? '' : `at ${s.savepointedAt}`].filter((x) => x !== '').join(' ');
  const comments = s.comments ? ` ${JSON.stringify(s.comments)}` : '';
  return `${s.instant}${by === '' ? '' : ` (${by})`}${comments}`;
}

/** Render the report as the human-readable text of `lakelet inspect`. */
export function inspectText(r: InspectReport): string {
  const c = r.config;
  const lines: string[] = [];
  const field = (label: string, value: string) => lines.push(`${(label + ':').padEnd(18)}${value}`);
  lines.push(`Table ${c.databaseName ? `${c.databaseName}.` : ''}${c.name} at ${r.path}`);
  field('type', c.tableType);
  field('table version', String(c.version));
  field('timeline layout', String(c.timelineLayoutVersion));
  field('record key', listText(c.recordKeyFields));
  field('ordering', listText(c.orderingFields));
  field('partition', listText(c.partitionFields) + (c.partitionFields.length > 0 ? (c.hiveStylePartitioning ? ' (hive-style)' : ' (plain)') : ''));
  field('key generator', `${c.keyGenerator ?? '(default)'} [${c.keyGeneratorType}]`);
  field('merge mode', c.recordMergeMode);
  field('meta fields', c.populateMetaFields ? 'yes' : 'no');
  field('base file format', c.baseFileFormat);

  const pendingNote = r.pending.length > 0 ? ` (${r.pending.length} pending)` : '';
  lines.push('', `Timeline: ${plural(r.timeline.length, 'instant')}${pendingNote}`);
  if (r.timeline.length > 0) {
    const savepointed = new Set(r.savepoints.map((s) => s.instant));
    const note = (i: InspectReport['timeline'][number]) => (i.state !== 'COMPLETED' ? '<- pending' : i.action !== 'savepoint' && savepointed.has(i.requestedTime) ? '<- savepointed' : '');
    const rows = [['requested', 'action', 'state', 'completed', ''], ...r.timeline.map((i) => [i.requestedTime, i.action, i.state, i.completionTime ?? '-', note(i)])];
    const widths = [0, 1, 2, 3, 4].map((k) => Math.max(...rows.map((row) => (row[k] ?? '').length)));
    for (const row of rows) lines.push('  ' + row.map((x, k) => x.padEnd(widths[k] ?? 0)).join('  ').trimEnd());
  }
  field('pending', r.pending.length === 0 ? '(none)' : r.pending.map((i) => `${i.requestedTime} ${i.action} (${i.state})`).join(', '));
  field('savepoints', r.savepoints.length === 0 ? '(none)' : r.savepoints.map(savepointText).join(', '));
  if (r.oldestReadableInstant) field('oldest readable', `${r.oldestReadableInstant.instant} (clean ${r.oldestReadableInstant.clean}; time travel before it fails)`);

  lines.push('', `Schema history: ${plural(r.schemaHistory.length, 'schema')}${r.schemaHistory.length === 0 ? ' (no completed write recorded one)' : ''}`);
  if (r.schemaHistory.length > 0) {
    const rows = [['instant', 'fields', 'changes'], ...r.schemaHistory.map((h, k) => [h.instant, String(h.fields), k === 0 ? '(first schema)' : schemaChangesText(h.changes)])];
    const widths = [0, 1].map((k) => Math.max(...rows.map((row) => (row[k] ?? '').length)));
    for (const row of rows) lines.push(`  ${(row[0] ?? '').padEnd(widths[0] ?? 0)}  ${(row[1] ?? '').padEnd(widths[1] ?? 0)}  ${row[2] ?? ''}`);
  }

  const t = r.totals;
  lines.push('', `File slices (latest snapshot): ${plural(t.fileGroups, 'file group')} in ${plural(t.partitions, 'partition')}, ${plural(t.baseFiles, 'base file')}, ${plural(t.logFiles, 'log file')}, ${formatBytes(t.bytes)}`);
  let partition: string | undefined;
  for (const s of r.fileSlices) {
    if (s.partitionPath !== partition) {
      partition = s.partitionPath;
      lines.push(`  partition ${partition === '' ? '(none)' : partition}`);
    }
    lines.push(`    file group ${s.fileId} @ ${s.baseInstantTime}`);
    if (s.baseFile) lines.push(`      base  ${s.baseFile.name}  ${formatBytes(s.baseFile.size)}`);
    for (const l of s.logFiles) lines.push(`      log   ${l.name}  ${formatBytes(l.size)}`);
  }
  return lines.join('\n') + '\n';
}
