// The CLI's write commands: `upsert`, `insert`, `bulk-insert` and `delete` write the rows of a JSON lines, CSV or
// parquet file into a table directory, with progress on stderr (`lakelet create` is create.ts).
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  isLakeletError, LakeletError, META_FIELDS, nodeFsStorage, openTable, type IndexType, type Table, type WriteOptions, type WriteResult, type WriteWarning,
} from '../index.js';
import { HELP, onePositional, parseArgs, UsageError, type OptionSpec } from './args.js';
import { EVOLVE_SCHEMA_HELP, readWriteInput } from './evolve-schema.js';
import { inputFormatOf, type InputRows } from './input.js';
import { keysWithoutRecord, missingKeysLine, readKeysFile } from './keys.js';
import { printText, type CliOutput } from './output.js';
import { progressReporter } from './progress.js';
import { parseValidateOptions, VALIDATE_HELP } from './validators.js';

/** The write commands, by their CLI name. */
export const WRITE_COMMANDS = ['upsert', 'insert', 'bulk-insert', 'delete'] as const;
/** One of {@link WRITE_COMMANDS}. */
export type WriteCommand = (typeof WRITE_COMMANDS)[number];

/** Where the write commands print (the CLI's `CliIo`). */
export interface WriteIo {
  stdout: CliOutput;
  stderr: CliOutput;
}

const WRITE_WHAT: Record<WriteCommand, string> = {
  upsert: 'Inserts new records and updates existing ones (by record key; of two versions\nof a record the greater ordering value wins).',
  insert: 'Inserts records without looking up existing keys (fast; a key already in the\ntable is written again as a duplicate).',
  'bulk-insert': 'Writes records into new file groups, sorted by partition and key, without\nlooking up existing keys (fastest for a first load).',
  delete: 'Deletes records: by record key (--keys, looked up in every partition) or by\nthe rows of --input (only their key and partition fields are used).',
};

/** The help text of one write command. */
export function writeUsage(command: WriteCommand): string {
  const input = command === 'delete' ? '(--input <file> | --keys <k1,k2,...> | --keys-file <file>)' : '--input <file>';
  return `Usage: lakelet ${command} <dir> ${input} [options]

${WRITE_WHAT[command]} <dir> is a table directory.

Options:
  --input <file>         rows: JSON lines, CSV (header row) or parquet
  --format <fmt>         jsonl, csv or parquet (default: from the extension:
                         .jsonl .ndjson .json, .csv, .parquet)
  --index <type>         BLOOM (default), GLOBAL_BLOOM, SIMPLE or GLOBAL_SIMPLE
${command === 'delete' ? `  --keys <k1,k2,...>     record keys to delete instead of --input; repeatable
                         (keys of several fields, "a:1,b:2", split before "a:")
  --keys-file <file>     record keys to delete, one per line, exactly as written
                         (for keys holding commas)
                         With --keys or --keys-file, keys that match no record
                         are named on stderr ("lakelet: warning: ..."); the
                         others are deleted and the exit status is 0
` : EVOLVE_SCHEMA_HELP}  --callback-url <url>   after the commit, POST Hudi's commit callback message
                         (JSON) to <url>, as hoodie.write.commit.callback.http.url;
                         a failed or slow (3 s) callback is a warning, not an error
  --callback-api-key <k> its HUDI-CALLBACK-KEY header (default Hudi's
                         hudi_write_commit_http_callback)
${VALIDATE_HELP}  --json                 print the result as one JSON document
  -q, --quiet            no progress on stderr
  -h, --help             this help

Input values: JSON numbers are exact (integers beyond 2^53 become longs,
decimals keep their digits); strings of digits fill long/int fields and
base64 text fills bytes fields (what lakelet query prints reads back). CSV
cells are typed by the table schema; an unquoted empty cell is null and a
quoted one ("") an empty string. Without a table schema, each CSV column
takes one type from its cells: integers, numbers, true/false, else text.
_hoodie_* columns are ignored.

Output: one line on stdout, e.g. "20250102030405678 upsert: 3 inserted,
1 updated, 0 deleted; 2 files written (12.3 KiB) in 2 partitions". Progress
goes to stderr: a bar on a terminal, otherwise one summary line.

Exit status: 0 once the write is committed, even when a step after the commit
(inline compaction, clean, archival, the callback) failed: each one is printed on
stderr as "lakelet: warning: ..." (do not retry the write). 2 when nothing was
written (bad input, a conflict, an error before the commit).
`;
}

const WRITE_SPECS: OptionSpec[] = [
  HELP,
  { name: 'input', kind: 'value' },
  { name: 'format', kind: 'value' },
  { name: 'index', kind: 'value' },
  { name: 'keys', kind: 'list' },
  { name: 'keys-file', kind: 'value' },
  { name: 'callback-url', kind: 'value' },
  { name: 'callback-api-key', kind: 'value' },
  { name: 'validate', kind: 'list' },
  { name: 'evolve-schema', kind: 'flag' },
  { name: 'json', kind: 'flag' },
  { name: 'quiet', short: 'q', kind: 'flag' },
];

const CLI_INDEXES: readonly IndexType[] = ['BLOOM', 'GLOBAL_BLOOM', 'SIMPLE', 'GLOBAL_SIMPLE', 'RECORD_INDEX'];

/**
 * Open the table in directory `dir` for writing: it must be a directory holding `.hoodie/hoodie.properties`
 * (a missing directory or table → `NOT_FOUND`; a file or .zip → `INVALID_ARGUMENT`). `command` names the
 * command in messages.
 */
export async function openForWrite(dir: string, command: string): Promise<Table> {
  let info;
  try {
    info = await stat(dir);
  } catch (err) {
    throw new LakeletError('NOT_FOUND', `${command}: no such directory ${JSON.stringify(dir)}`, { path: dir }, { cause: err });
  }
  if (!info.isDirectory()) throw new LakeletError('INVALID_ARGUMENT', `${command}: ${JSON.stringify(dir)} is not a directory (writes need a table directory; .zip tables are read-only)`, { path: dir });
  try {
    await stat(join(dir, '.hoodie', 'hoodie.properties'));
  } catch (err) {
    throw new LakeletError('NOT_FOUND', `${command}: ${JSON.stringify(dir)} holds no Hudi table (no .hoodie/hoodie.properties; make one with lakelet create)`, { path: dir }, { cause: err });
  }
  return openTable(nodeFsStorage(dir));
}

/** Split `--keys` values: at commas, but for keys of several fields (`a:1,b:2`) only before `<first field>:`. */
export function splitKeys(values: readonly string[], recordKeyFields: readonly string[]): string[] {
  const keys: string[] = [];
  for (const value of values) {
    const pieces = value.split(',');
    if (recordKeyFields.length <= 1) {
      keys.push(...pieces.map((p) => p.trim()));
      continue;
    }
    const first = `${recordKeyFields[0]}:`;
    let current: string | undefined;
    for (const piece of pieces) {
      if (current === undefined || piece.trim().startsWith(first)) {
        if (current !== undefined) keys.push(current);
        current = piece.trim();
      } else current += `,${piece}`;
    }
    if (current !== undefined) keys.push(current);
  }
  if (keys.some((k) => k === '')) throw new UsageError('option --keys holds an empty key');
  return keys;
}

/** `lakelet upsert|insert|bulk-insert|delete`: read the input, write it with progress on stderr, print the result. */
export async function writeCommand(command: WriteCommand, argv: string[], io: WriteIo): Promise<number> {
  const args = parseArgs(argv, WRITE_SPECS, command);
  if (args.flags.has('help')) return printText(io.stdout, writeUsage(command));
  const dir = onePositional(args.positionals, command);
  const input = args.values.get('input');
  const keyArgs = args.lists.get('keys');
  const keysFile = args.values.get('keys-file');
  if ((keyArgs !== undefined || keysFile !== undefined) && command !== 'delete') throw new UsageError(`option ${keyArgs !== undefined ? '--keys' : '--keys-file'} is only for delete`);
  if (keyArgs !== undefined && keysFile !== undefined) throw new UsageError('options --keys and --keys-file cannot be combined');
  if ((keyArgs !== undefined || keysFile !== undefined) && input !== undefined) throw new UsageError(`options ${keyArgs !== undefined ? '--keys' : '--keys-file'} and --input cannot be combined`);
  if (keyArgs === undefined && keysFile === undefined && input === undefined) throw new UsageError(`${command}: option --input is required${command === 'delete' ? ' (or --keys, --keys-file)' : ''} (see lakelet ${command} --help)`);
  if (input === undefined && args.values.has('format')) throw new UsageError('option --format needs --input');
  const format = input === undefined ? undefined : inputFormatOf(input, args.values.get('format'));
  const options: WriteOptions = {};
  const index = args.values.get('index');
  if (index !== undefined) {
    const type = index.trim().toUpperCase().replace(/-/g, '_') as IndexType;
    if (!CLI_INDEXES.includes(type)) throw new UsageError(`option --index must be one of ${CLI_INDEXES.join(', ')}, got ${JSON.stringify(index)}`);
    options.index = type;
  }
  const callbackUrl = args.values.get('callback-url');
  const callbackKey = args.values.get('callback-api-key');
  if (callbackKey !== undefined && callbackUrl === undefined) throw new UsageError('option --callback-api-key needs --callback-url');
  if (callbackUrl !== undefined) options.commitCallback = { url: callbackUrl, ...(callbackKey !== undefined && { apiKey: callbackKey }) };
  if (args.lists.has('validate')) options.validators = parseValidateOptions(args.lists.get('validate'));

  const table = await openForWrite(dir, command);
  let rows: InputRows | undefined;
  if (input !== undefined && format !== undefined) {
    const tableSchema = await table.avroSchema();
    const schema = { ...tableSchema, fields: tableSchema.fields.filter((f) => !(META_FIELDS as readonly string[]).includes(f.name)) };
    const hasSchema = schema.fields.length > 0;
    const read = await readWriteInput({ path: input, format, schema: hasSchema ? schema : undefined, evolve: args.flags.has('evolve-schema'), command, ...(!args.flags.has('quiet') && { stderr: io.stderr }) });
    rows = read.rows;
    if (read.schema !== undefined) options.schema = read.schema;
    // A table without a schema takes a parquet file's own (exact types: dates, maps, decimals) over one inferred from values.
    if (!hasSchema && rows.avroSchema !== undefined && command !== 'delete') options.schema = rows.avroSchema;
  }
  const keys = rows !== undefined ? [] : keysFile !== undefined ? await readKeysFile(keysFile) : splitKeys(keyArgs ?? [], table.config.recordKeyFields);
  const missing = rows !== undefined ? [] : await keysWithoutRecord(table, keys);
  const progress = progressReporter(io.stderr, { label: command, quiet: args.flags.has('quiet') });
  options.onProgress = (p) => progress.update(p);
  let result: WriteResult;
  try {
    if (rows === undefined) result = await table.delete(keys, options);
    else if (command === 'upsert') result = await table.upsert(rows.rows, options);
    else if (command === 'insert') result = await table.insert(rows.rows, options);
    else if (command === 'bulk-insert') result = await table.bulkInsert(rows.rows, options);
    else result = await table.delete(rows.rows, options);
  } catch (err) {
    progress.fail();
    throw withInputLine(err, rows, input);
  }
  progress.finish();
  if (missing.length > 0) io.stderr.write(`lakelet: warning: ${missingKeysLine(missing, new Set(keys).size)}\n`);
  // Committed: a post-commit step that failed is a warning (exit 0), never a reason to retry the write.
  for (const w of result.warnings) io.stderr.write(`lakelet: warning: ${warningLine(w)}\n`);
  if (args.flags.has('json')) return printText(io.stdout, JSON.stringify({ instant: result.instant, operation: result.operation, stats: result.stats, warnings: result.warnings }) + '\n');
  return printText(io.stdout, resultLine(result, command) + '\n');
}

/** One line for a post-commit warning: which step failed, that the write is committed, and why. */
export function warningLine(w: WriteWarning): string {
  return `${w.service} failed after the commit (the write is committed; do not retry it): ${w.message.replace(/\s+/g, ' ').trim()}`;
}

/** A row error of the write (`context.row`) gains the input file and line the row came from. */
function withInputLine(err: unknown, rows: InputRows | undefined, input: string | undefined): unknown {
  if (!isLakeletError(err) || rows?.lines === undefined || input === undefined) return err;
  const row = err.context.row;
  const line = typeof row === 'number' ? rows.lines[row] : undefined;
  if (line === undefined) return err;
  return new LakeletError(err.code, `${err.message} (${input} line ${line})`, { ...err.context, path: input, line }, { cause: err });
}

/** `20250102030405678 upsert: 3 inserted, 1 updated, 0 deleted; 2 files written (12.3 KiB) in 2 partitions`. */
export function resultLine(result: WriteResult, command: string): string {
  const s = result.stats;
  const partitions = s.partitions.length;
  let line = `${result.instant} ${command}: ${s.inserted} inserted, ${s.updated} updated, ${s.deleted} deleted; ${s.filesWritten} file${s.filesWritten === 1 ? '' : 's'} written (${formatBytes(s.bytesWritten)}) in ${partitions} partition${partitions === 1 ? '' : 's'}`;
  if (s.replacedFileGroups > 0) line += `; ${s.replacedFileGroups} file groups replaced`;
  return line;
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}
