// `lakelet history <table> --key K [--partition P] [--json]`: one record's history (table.history) — each
// committed version newest first (commit time, op, file, value as JSON) and the line saying where it ends — as
// text, or one JSON document; values JSON-encoded like `lakelet query` rows.
import { jsonRow, openTable, storageForPath, type AvroRecordSchema, type HistoryEnd, type RecordHistory, type RecordVersion } from '../index.js';
import { HELP, parseArgs, UsageError, type OptionSpec } from './args.js';
import { OutputSink, type CliOutput } from './output.js';

/** Help text of `lakelet history`. */
export const HISTORY_USAGE = `Usage: lakelet history <table> --key <record-key> [--partition <path>] [--json] [--meta]

Prints every committed version of one record, newest first: the commit's
instant time (and completion time on table versions 8 and 9), what it did
(insert, update, delete; "unknown" for the oldest value still on storage when
older writes were cleaned or archived), the file it wrote and the record's
value after it. The last line says where the history ends:
  created   the oldest version is the record's first insert
  cleaned   a clean removed the file slices of older writes
  archived  older writes are not on the timeline nor in its archive
  absent    the key never existed in the table's history
Only file groups whose base files' bloom filters admit the key are read.

Options:
  --key <key>        the record key (_hoodie_record_key); a composite key as
                     Hudi writes it: field1:value1,field2:value2; required
  --partition <path> only the record in this partition (e.g. region=eu)
  --json             one JSON object: {key, versions, end}
  --meta             keep the _hoodie_* meta columns in the values
  -h, --help         this help
`;

const SPECS: OptionSpec[] = [HELP, { name: 'key', kind: 'value' }, { name: 'partition', kind: 'value' }, { name: 'json', kind: 'flag' }, { name: 'meta', kind: 'flag' }];

/** A version with its value JSON-encoded by the table schema. */
function versionJson(v: RecordVersion, schema: AvroRecordSchema): Record<string, unknown> {
  return { ...v, value: v.value && jsonRow(v.value, schema) };
}

/** The closing line of the text output. */
export function endLine(end: HistoryEnd): string {
  switch (end.reason) {
    case 'created': return `history ends: created at ${end.before ?? '?'} (the record's first insert)`;
    case 'cleaned': return `history ends: cleaned — writes at or before ${end.before ?? '?'} had their file slices removed by a clean`;
    case 'archived': return `history ends: archived — writes before ${end.before ?? '?'} are not on the timeline nor in its archive`;
    case 'absent': return 'history ends: absent — the key never existed in the table';
  }
}

function textLines(h: RecordHistory, schema: AvroRecordSchema): string {
  const lines = h.versions.map((v) => {
    const when = v.completionTime ? `${v.commitTime} (completed ${v.completionTime})` : v.commitTime;
    const where = v.file ?? `${v.partitionPath}/${v.fileId}`;
    const moved = v.movedFrom ? ` (moved from ${v.movedFrom.partitionPath}/${v.movedFrom.fileId})` : '';
    return `${when}  ${v.op.padEnd(7)}  ${where}${moved}  ${v.value ? JSON.stringify(jsonRow(v.value, schema)) : '-'}`;
  });
  return `history of ${h.key}: ${h.versions.length} version${h.versions.length === 1 ? '' : 's'}, newest first\n${lines.map((l) => `${l}\n`).join('')}${endLine(h.end)}\n`;
}

/**
 * Run `lakelet history` with its arguments (after the command name); 0 on success. Bad arguments throw a
 * UsageError and an unreadable table a LakeletError (the CLI's main prints them as one line, exit 2).
 */
export async function historyCommand(argv: string[], io: { stdout: CliOutput; stderr: CliOutput }): Promise<number> {
  const args = parseArgs(argv, SPECS, 'history');
  const sink = new OutputSink(io.stdout);
  if (args.flags.has('help')) {
    sink.push(HISTORY_USAGE);
    await sink.flush();
    return 0;
  }
  if (args.positionals.length !== 1) throw new UsageError(args.positionals.length === 0 ? 'history: missing <table> (a table directory or .zip; see lakelet history --help)' : `history: unexpected argument ${JSON.stringify(args.positionals[1])} (only one <table>)`);
  const key = args.values.get('key');
  if (key === undefined || key === '') throw new UsageError('history: option --key is required (the record key to follow)');
  const partition = args.values.get('partition');
  const table = await openTable(await storageForPath(args.positionals[0] as string));
  const meta = args.flags.has('meta');
  const h = await table.history(key, { ...(partition === undefined ? {} : { partition }), metaColumns: meta, onWarning: (w) => io.stderr.write(`lakelet: warning: ${w.message.replace(/\s+/g, ' ')}\n`) });
  const schema = await table.avroSchema();
  sink.push(args.flags.has('json') ? `${JSON.stringify({ key: h.key, versions: h.versions.map((v) => versionJson(v, schema)), end: h.end })}\n` : textLines(h, schema));
  await sink.flush();
  return 0;
}
