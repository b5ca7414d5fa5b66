// `lakelet changes <table> --from A [--to B]`: the table's CDC query (table.changeRows) printed one change per
// line — op, ts_ms, commit_time, before, after — as JSON lines, CSV (images as JSON text, as Hudi's Spark CDC
// query gives them) or an aligned table; images JSON-encoded like `lakelet query` rows.
import { jsonRow, openTable, storageForPath, type AvroRecordSchema, type CdcSource, type ChangeRecord } from '../index.js';
import { HELP, parseArgs, parseInstantArg, UsageError, type OptionSpec } from './args.js';
import { ROW_FORMATS, rowWriter, type RowFormat } from './format.js';
import { OutputSink, type CliOutput } from './output.js';
import { writeRowStream } from './row-stream.js';

/** Help text of `lakelet changes`. */
export const CHANGES_USAGE = `Usage: lakelet changes <table> --from <instant> [--to <instant>] [--format <fmt>]
                       [--cdc-source <src>]

Prints the changes (Hudi's CDC query) of the writes in (from, to]: one line per
insert, update and delete, in commit order, with the columns
  op           i (insert), u (update) or d (delete)
  ts_ms        the commit's instant time as epoch milliseconds (UTC)
  commit_time  the commit's instant time (yyyyMMddHHmmssSSS)
  before       the record before the change (null for inserts)
  after        the record after the change (null for deletes)
Images carry no meta columns (_hoodie_*). On tables written with CDC
(hoodie.table.cdc.enabled) changes come from the .cdc files a write names;
elsewhere they are inferred from the timeline and file slices (new,
rewritten, emptied, replaced file groups and log blocks); compactions and
clusterings change no record. Table version 6
ranges over requested instant times, versions 8 and 9 over completion times
(the requested time of a completed write stands for its completion).

Options:
  --from <instant>   exclusive start (yyyyMMddHHmmss[SSS], an ISO-8601 date or
                     time in UTC, or "earliest"); required
  --to <instant>     inclusive end (default: the latest write)
  --format <fmt>     jsonl (default): one JSON object per change
                     csv: header line, before/after as JSON text
                     table: aligned columns, long cells truncated
  --cdc-source <src> auto (default): .cdc files where a write names them,
                     inference elsewhere
                     files: as Hudi's reader; a rewritten base file without
                     a .cdc file is an error
                     infer: from file slices only, .cdc files unread
  -h, --help         this help
`;

const SPECS: OptionSpec[] = [HELP, { name: 'from', kind: 'value' }, { name: 'to', kind: 'value' }, { name: 'format', kind: 'value' }, { name: 'cdc-source', kind: 'value' }];
const CDC_SOURCES: readonly CdcSource[] = ['auto', 'files', 'infer'];
const COLUMNS = ['op', 'ts_ms', 'commit_time', 'before', 'after'];
/** `--from earliest`: before every instant (Hudi's `hudi_table_changes(..., 'earliest')`). */
const EARLIEST = '00000000000000000';

/** One change as an output row: images JSON-encoded by the table schema. */
function changeRow(c: ChangeRecord, schema: AvroRecordSchema): Record<string, unknown> {
  return { op: c.op, ts_ms: c.ts_ms, commit_time: c.commitTime, before: c.before && jsonRow(c.before, schema), after: c.after && jsonRow(c.after, schema) };
}

/**
 * Run `lakelet changes` with its arguments (after the command name); 0 on success. Bad arguments throw a
 * UsageError and an unreadable table or range a LakeletError (the CLI's main prints them as one line, exit 2).
 */
export async function changesCommand(argv: string[], io: { stdout: CliOutput; stderr: CliOutput }): Promise<number> {
  const args = parseArgs(argv, SPECS, 'changes');
  const sink = new OutputSink(io.stdout);
  if (args.flags.has('help')) {
    sink.push(CHANGES_USAGE);
    await sink.flush();
    return 0;
  }
  if (args.positionals.length !== 1) throw new UsageError(args.positionals.length === 0 ? 'changes: missing <table> (a table directory or .zip; see lakelet changes --help)' : `changes: unexpected argument ${JSON.stringify(args.positionals[1])} (only one <table>)`);
  const fromText = args.values.get('from');
  if (fromText === undefined) throw new UsageError('changes: option --from is required (the exclusive start instant, or "earliest")');
  const from = fromText.trim().toLowerCase() === 'earliest' ? EARLIEST : parseInstantArg(fromText, '--from');
  const toText = args.values.get('to');
  const format = args.values.get('format') ?? 'jsonl';
  if (!(ROW_FORMATS as readonly string[]).includes(format)) throw new UsageError(`option --format must be one of ${ROW_FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
  const to = toText === undefined ? undefined : parseInstantArg(toText, '--to');
  const cdcSource = args.values.get('cdc-source') ?? 'auto';
  if (!(CDC_SOURCES as readonly string[]).includes(cdcSource)) throw new UsageError(`option --cdc-source must be one of ${CDC_SOURCES.join(', ')}, got ${JSON.stringify(cdcSource)}`);
  const table = await openTable(await storageForPath(args.positionals[0] as string));
  const schema = await table.avroSchema(to === undefined ? {} : { asOf: to });
  const changes = table.changeRows({ from, cdcSource: cdcSource as CdcSource, ...(to === undefined ? {} : { to }), onWarning: (w) => io.stderr.write(`lakelet: warning: ${w.message.replace(/\s+/g, ' ')}\n`) });
  await writeRowStream(changes, sink, () => rowWriter(format as RowFormat, COLUMNS, sink), (c) => changeRow(c, schema));
  return 0;
}
