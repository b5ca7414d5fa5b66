// The CLI's write commands: `lakelet create` makes an empty table in a directory, and `upsert`, `insert`,
// `bulk-insert` and `delete` write the rows of a JSON lines, CSV or parquet file into it with progress on stderr.
import { mkdir, readFile, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createTable, isLakeletError, LakeletError, META_FIELDS, nodeFsStorage, openTable,
  type CreateTableOptions, type IndexType, type Table, type TableType, type WriteOptions, type WriteResult, type WriteWarning,
} from '../index.js';
import { HELP, parseArgs, parseColumnList, UsageError, type OptionSpec } from './args.js';
import { EVOLVE_SCHEMA_HELP, readWriteInput } from './evolve-schema.js';
import { inputFormatOf, type InputRows } from './input.js';
import { keysWithoutRecord, missingKeysLine, readKeysFile } from './keys.js';
import { OutputSink, type CliOutput } from './output.js';
import { progressReporter } from './progress.js';
import { parseValidateOptions, VALIDATE_HELP } from './validators.js';

type KeyGeneratorKind = Extract<NonNullable<CreateTableOptions['keyGenerator']>, string>;

/** The write commands, by their CLI name. */
export const WRITE_COMMANDS = ['upsert', 'insert', 'bulk-insert', 'delete'] as const;
/** One of {@link WRITE_COMMANDS}. */
export type WriteCommand = (typeof WRITE_COMMANDS)[number];

/** Where the write commands print (the CLI's `CliIo`). */
export interface WriteIo {
  stdout: CliOutput;
  stderr: CliOutput;
}

/** The help text of `lakelet create`. */
export const CREATE_USAGE = `Usage: lakelet create <dir> --name <name> --type <type> --record-key <a[,b]> [options]

Creates an empty Hudi table (table version 6) in <dir>, making the directory
when it is missing. A directory that already holds a table is refused.

Options:
  --name <name>            table name, hoodie.table.name (required)
  --type <type>            COPY_ON_WRITE or MERGE_ON_READ (also cow, mor) (required)
  --record-key <a[,b]>     record key field(s) (required)
  --ordering-field <f>     ordering (precombine) field: of two versions of a
                           record, the one with the greater value wins
  --partition-by <p[,q]>   partition field(s) (default: not partitioned)
  --no-hive-style          partition folders named value, not field=value
  --key-generator <kind>   SIMPLE, COMPLEX or NON_PARTITION (default, as Hudi infers
                           it: NON_PARTITION without partitions, SIMPLE for one key
                           and one partition field, else COMPLEX); a kind that
                           cannot take the fields is refused
  --schema <file>          table schema: an Avro record schema as JSON (.avsc,
                           .json); without it the first write infers one
  --json                   print the new table's config as JSON
  -h, --help               this help

Writes to a merge-on-read table are deltacommits (log files); lakelet compact
merges them into base files (see lakelet compact --help).
`;

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

const CREATE_SPECS: OptionSpec[] = [
  HELP,
  { name: 'name', kind: 'value' },
  { name: 'type', kind: 'value' },
  { name: 'record-key', kind: 'value' },
  { name: 'ordering-field', kind: 'value' },
  { name: 'partition-by', kind: 'value' },
  { name: 'no-hive-style', kind: 'flag' },
  { name: 'key-generator', kind: 'value' },
  { name: 'schema', kind: 'value' },
  { name: 'json', kind: 'flag' },
];
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

const TABLE_TYPES: Record<string, TableType> = { COPY_ON_WRITE: 'COPY_ON_WRITE', COW: 'COPY_ON_WRITE', MERGE_ON_READ: 'MERGE_ON_READ', MOR: 'MERGE_ON_READ' };
const KEY_GENERATORS: readonly KeyGeneratorKind[] = ['SIMPLE', 'COMPLEX', 'NON_PARTITION'];
const CLI_INDEXES: readonly IndexType[] = ['BLOOM', 'GLOBAL_BLOOM', 'SIMPLE', 'GLOBAL_SIMPLE', 'RECORD_INDEX'];

async function print(out: CliOutput, text: string): Promise<number> {
  const sink = new OutputSink(out);
  sink.push(text);
  await sink.flush();
  return 0;
}

function onePath(positionals: string[], command: string): string {
  if (positionals.length === 0) throw new UsageError(`${command}: missing <dir> (a table directory; see lakelet ${command} --help)`);
  if (positionals.length > 1) throw new UsageError(`${command}: unexpected argument ${JSON.stringify(positionals[1])} (only one <dir>)`);
  return positionals[0] as string;
}

function required(values: Map<string, string>, name: string, command: string): string {
  const v = values.get(name);
  if (v === undefined || v.trim() === '') throw new UsageError(`${command}: option --${name} is required (see lakelet ${command} --help)`);
  return v.trim();
}

/** `lakelet create`: parse the options, make the directory when missing and create the table in it. */
export async function createCommand(argv: string[], io: WriteIo): Promise<number> {
  const args = parseArgs(argv, CREATE_SPECS, 'create');
  if (args.flags.has('help')) return print(io.stdout, CREATE_USAGE);
  const dir = onePath(args.positionals, 'create');
  const v = args.values;
  const name = required(v, 'name', 'create');
  const typeText = required(v, 'type', 'create');
  const type = TABLE_TYPES[typeText.toUpperCase().replace(/-/g, '_')];
  if (type === undefined) throw new UsageError(`option --type must be COPY_ON_WRITE, MERGE_ON_READ, cow or mor, got ${JSON.stringify(typeText)}`);
  const options: CreateTableOptions = { name, type, recordKey: parseColumnList(required(v, 'record-key', 'create'), '--record-key') };
  const ordering = v.get('ordering-field');
  if (ordering !== undefined) {
    if (ordering.trim() === '' || ordering.includes(',')) throw new UsageError(`option --ordering-field takes one field name, got ${JSON.stringify(ordering)}`);
    options.orderingField = ordering.trim();
  }
  const partitionBy = v.get('partition-by');
  if (partitionBy !== undefined) options.partitionBy = parseColumnList(partitionBy, '--partition-by');
  if (args.flags.has('no-hive-style')) options.hiveStylePartitioning = false;
  const kg = v.get('key-generator');
  if (kg !== undefined) {
    const kind = kg.trim().toUpperCase().replace(/-/g, '_') as KeyGeneratorKind;
    if (!KEY_GENERATORS.includes(kind)) throw new UsageError(`option --key-generator must be one of ${KEY_GENERATORS.join(', ')}, got ${JSON.stringify(kg)}`);
    options.keyGenerator = kind;
  }
  const schemaFile = v.get('schema');
  if (schemaFile !== undefined) options.schema = await readSchemaFile(schemaFile);

  const made = await makeDirectory(dir);
  let table: Table;
  try {
    table = await createTable(nodeFsStorage(dir), options);
  } catch (err) {
    if (made) await rmdir(dir).catch(() => undefined); // only if still empty
    throw err;
  }
  const c = table.config;
  if (args.flags.has('json')) {
    const report = { path: dir, name: c.name, tableType: c.tableType, version: c.version, recordKeyFields: c.recordKeyFields, orderingFields: c.orderingFields, partitionFields: c.partitionFields, hiveStylePartitioning: c.hiveStylePartitioning, keyGenerator: c.keyGenerator ?? null, keyGeneratorType: c.keyGeneratorType, hasSchema: c.createSchema !== undefined };
    return print(io.stdout, JSON.stringify(report, null, 2) + '\n');
  }
  const parts = [`record key ${c.recordKeyFields.join(',')}`];
  if (c.orderingFields.length > 0) parts.push(`ordering ${c.orderingFields.join(',')}`);
  parts.push(c.partitionFields.length > 0 ? `partitioned by ${c.partitionFields.join(',')}${c.hiveStylePartitioning ? '' : ' (not hive-style)'}` : 'not partitioned');
  return print(io.stdout, `created ${c.tableType} table ${c.name} in ${dir} (${parts.join('; ')})\n`);
}

async function readSchemaFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new LakeletError('NOT_FOUND', `create: cannot read schema file ${JSON.stringify(path)} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { path }, { cause: err });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new LakeletError('INVALID_ARGUMENT', `create: schema file ${JSON.stringify(path)} is not JSON (${(err as Error).message})`, { path }, { cause: err });
  }
}

/** Make `dir` when missing (true when this call made it); a path that is a file → INVALID_ARGUMENT. */
async function makeDirectory(dir: string): Promise<boolean> {
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) throw new LakeletError('INVALID_ARGUMENT', `create: ${JSON.stringify(dir)} exists and is not a directory`, { path: dir });
    return false;
  } catch (err) {
    if (isLakeletError(err)) throw err;
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new LakeletError('STORAGE', `create: cannot use ${JSON.stringify(dir)} (${(err as Error).message})`, { path: dir }, { cause: err });
  }
  await mkdir(dir, { recursive: true });
  return true;
}

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
  if (args.flags.has('help')) return print(io.stdout, writeUsage(command));
  const dir = onePath(args.positionals, command);
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
  if (args.flags.has('json')) return print(io.stdout, JSON.stringify({ instant: result.instant, operation: result.operation, stats: result.stats, warnings: result.warnings }) + '\n');
  return print(io.stdout, resultLine(result, command) + '\n');
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
