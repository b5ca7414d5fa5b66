// The `lakelet` command-line tool (`bin/lakelet.js` runs it from dist/): `inspect` a table, `query` its rows,
// `create` one and write rows into it (cli-write.ts), run table services (cli-services.ts), `publish` it,
// `validate` it (validate.ts).
// Every failure becomes one `lakelet: <message>` line on stderr and exit code 2; never a stack trace.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLakeletError, jsonRow, openTable, parseFilter, storageForPath, type Filter, type RowsOptions, type Table } from '../index.js';
import { HELP, onePositional, parseArgs, parseColumnList, parseCount, parseInstantArg, UsageError, type OptionSpec } from './args.js';
import { ROW_FORMATS, rowWriter, type RowFormat } from './format.js';
import { INSPECT_USAGE, inspectTable, inspectText } from './inspect.js';
import { OutputClosed, OutputSink, printText, type CliOutput } from './output.js';
import { PUBLISH_USAGE, publishCommand } from './publish.js';
import { REPLICATE_USAGE, replicateCommand } from './replicate.js';
import { isServiceCommand, SERVICE_COMMANDS, serviceCommand, SERVICES_SUMMARY, SERVICES_SYNOPSIS, serviceUsage } from './services.js';
import { CREATE_USAGE, createCommand } from './create.js';
import { WRITE_COMMANDS, writeCommand, writeUsage, type WriteCommand } from './write.js';
import { VALIDATE_USAGE, validateCommand } from './validate.js';
import { CATALOG_USAGE, catalogCommand } from './catalog.js';
import { CHANGES_USAGE, changesCommand } from './changes.js';
import { HISTORY_USAGE, historyCommand } from './history.js';
import { writeRowStream } from './row-stream.js';

export type { CliOutput } from './output.js';

/** Where the CLI writes: process.stdout / process.stderr, or test doubles with `write(string)`. */
export interface CliIo {
  stdout: CliOutput;
  stderr: CliOutput;
}

/** Exit code of a bad command line or a table that cannot be read. */
export const EXIT_ERROR = 2;

const USAGE = `lakelet - read and write Apache Hudi tables (copy-on-write and merge-on-read)

Usage:
  lakelet inspect <table> [--json]
  lakelet query <table> [options]
  lakelet changes <table> --from <instant> [--to <instant>] [--format <fmt>]
  lakelet history <table> --key <record-key> [--partition <path>] [--json]
  lakelet create <dir> --name <name> --type <type> --record-key <a[,b]> [options]
  lakelet upsert|insert|bulk-insert <dir> --input <file> [options]
  lakelet delete <dir> (--input <file> | --keys <k1,k2,...>) [options]
${SERVICES_SYNOPSIS}
  lakelet publish <dir>
  lakelet replicate <src> <dst> [--mode push|pull|rebase]
  lakelet validate <table> [--json]
  lakelet catalog ddl <table> [--database d] [--base-path s3a://...] [--since <instant>]
  lakelet catalog list <root>
  lakelet <command> --help
  lakelet --help | --version

<table> is a table directory (the folder holding .hoodie/), a folder holding one
table, or a .zip file holding one table.

Commands:
  inspect   config, timeline and the file slices of the latest snapshot
  query     rows: latest snapshot, time travel, read-optimized or incremental
  changes   the inserts, updates and deletes of a range of commits (CDC)
  history   every committed version of one record, and where its history ends
  create    a new empty table in a directory
  upsert    insert or update rows (by record key) from a JSON lines, CSV or parquet file
  insert    insert rows without looking up existing keys
  bulk-insert  load rows into new file groups (sorted, no key lookup)
  delete    delete records by key, or the records of the rows in a file
${SERVICES_SUMMARY}
  publish   write the listing manifest that static HTTP hosting needs
  replicate copy the completed instants a copy of the table lacks (dir or s3://)
  validate  check the table against its timeline and metadata table (exit 2
            on any problem)
  catalog   Hive sync statements of a table (ddl), the catalog of a folder of
            tables (list, register, drop)

Exit status:
  0  success; for a write, the commit landed. A step after the commit that
     failed (inline compaction, clean, archival) is printed on stderr as
     "lakelet: warning: ..." and does not change the status: do not retry.
  2  nothing changed: a bad command line, a table that cannot be read, or an
     operation that was refused or failed before it committed (the reason is
     one "lakelet: ..." line on stderr; the table's data is as it was).
     For validate: the problems it found (printed on stdout).
`;

const QUERY_USAGE = `Usage: lakelet query <table> [options]

Prints rows of the table: the latest snapshot unless told otherwise. Meta
columns (_hoodie_*) come first when the table has them.

Options:
  --as-of <instant>       time travel: the table as of an instant, inclusive
                          (yyyyMMddHHmmss[SSS], or an ISO-8601 date/time in UTC)
  --read-optimized        base files only (merge-on-read tables skip their logs)
  --from <instant>        incremental: records written after this instant (exclusive)
  --to <instant>          incremental: up to this instant (inclusive; default the
                          latest write); needs --from
  --columns <a,b,...>     columns to print, in this order (default: all)
  --where "<col> <op> <value>"
                          filter rows; repeatable, filters are ANDed; ops:
                          = != < <= > >= IN NOT IN (e.g. "city IN sf,nyc",
                          "fare >= 20", "name = 'Bob'"); dotted names reach
                          into structs
  --limit <n>             stop after n rows
  --format <fmt>          jsonl (default): one JSON object per row
                          csv: header line, RFC 4180 quoting, nested values as JSON
                          table: aligned columns, long cells truncated
  -h, --help              this help

JSON values: long as a number when it is safe, else a string; decimals as
strings with their scale ("75.00"); dates YYYY-MM-DD; timestamps ISO-8601 UTC;
bytes base64; structs and maps as objects; arrays as arrays.
`;

/** Every command, in the order the usage lists them. */
const COMMANDS = ['inspect', 'query', 'changes', 'history', 'create', ...WRITE_COMMANDS, ...SERVICE_COMMANDS, 'publish', 'replicate', 'validate', 'catalog'];

const TOP_SPECS: OptionSpec[] = [HELP, { name: 'version', short: 'V', kind: 'flag' }];
const INSPECT_SPECS: OptionSpec[] = [HELP, { name: 'json', kind: 'flag' }];
const QUERY_SPECS: OptionSpec[] = [
  HELP,
  { name: 'as-of', kind: 'value' },
  { name: 'read-optimized', kind: 'flag' },
  { name: 'from', kind: 'value' },
  { name: 'to', kind: 'value' },
  { name: 'columns', kind: 'value' },
  { name: 'where', kind: 'list' },
  { name: 'limit', kind: 'value' },
  { name: 'format', kind: 'value' },
];

/**
 * Run the CLI with `argv` (the arguments after the program name) and return the exit code: 0 on
 * success, {@link EXIT_ERROR} after printing a one-line `lakelet: <message>` on `io.stderr`.
 * A reader that goes away (EPIPE, `| head`) ends the output quietly with 0.
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  try {
    const command = argv[0];
    if (command === undefined) throw new UsageError('missing command (try lakelet --help)');
    if (command.startsWith('-')) {
      const top = parseArgs(argv, TOP_SPECS, '');
      if (top.positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(top.positionals[0])} (commands come first; try lakelet --help)`);
      if (top.flags.has('help')) return await printText(io.stdout, USAGE);
      return await printText(io.stdout, `${await packageVersion()}\n`);
    }
    const rest = argv.slice(1);
    switch (command) {
      case 'inspect': return await inspectCommand(rest, io);
      case 'query': return await queryCommand(rest, io);
      case 'changes': return await changesCommand(rest, io);
      case 'history': return await historyCommand(rest, io);
      case 'create': return await createCommand(rest, io);
      case 'publish': return await publishCommand(rest, io);
      case 'replicate': return await replicateCommand(rest, io);
      case 'validate': return await validateCommand(rest, io);
      case 'catalog': return await catalogCommand(rest, io);
      case 'help': return await printText(io.stdout, helpText(rest[0]));
      default:
        if ((WRITE_COMMANDS as readonly string[]).includes(command)) return await writeCommand(command as WriteCommand, rest, io);
        if (isServiceCommand(command)) return await serviceCommand(command, rest, io);
        throw new UsageError(`unknown command ${JSON.stringify(command)} (commands: ${COMMANDS.join(', ')}; try lakelet --help)`);
    }
  } catch (err) {
    if (err instanceof OutputClosed) return 0;
    io.stderr.write(`lakelet: ${errorLine(err)}\n`);
    return EXIT_ERROR;
  }
}

function helpText(command: string | undefined): string {
  if (command === 'query') return QUERY_USAGE;
  if (command === 'inspect') return INSPECT_USAGE;
  if (command === 'changes') return CHANGES_USAGE;
  if (command === 'history') return HISTORY_USAGE;
  if (command === 'create') return CREATE_USAGE;
  if (command === 'publish') return PUBLISH_USAGE;
  if (command === 'replicate') return REPLICATE_USAGE;
  if (command === 'validate') return VALIDATE_USAGE;
  if (command === 'catalog') return CATALOG_USAGE;
  if (isServiceCommand(command)) return serviceUsage(command);
  if ((WRITE_COMMANDS as readonly string[]).includes(command ?? '')) return writeUsage(command as WriteCommand);
  return USAGE;
}

/** One line of text for any thrown value: the message with whitespace runs collapsed. */
function errorLine(err: unknown): string {
  let message: string;
  if (err instanceof UsageError || isLakeletError(err)) message = err.message;
  else if (err instanceof Error) message = `unexpected ${err.name}: ${err.message}`;
  else message = `unexpected error: ${String(err)}`;
  return message.replace(/\s+/g, ' ').trim() || 'unexpected error';
}

/** The `version` of the package.json above this module (src/node/ and dist/node/ alike). */
export async function packageVersion(): Promise<string> {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'lakelet' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // no (readable) package.json here: keep walking up
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new UsageError('cannot find the package.json of lakelet to read its version');
}

const tablePath = (positionals: string[], command: string): string => onePositional(positionals, command, 'table', 'a table directory or .zip');

async function open(path: string): Promise<Table> {
  return openTable(await storageForPath(path));
}

async function inspectCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, INSPECT_SPECS, 'inspect');
  if (args.flags.has('help')) return printText(io.stdout, INSPECT_USAGE);
  const path = tablePath(args.positionals, 'inspect');
  const report = await inspectTable(await open(path), path);
  return printText(io.stdout, args.flags.has('json') ? JSON.stringify(report, null, 2) + '\n' : inspectText(report));
}

/** The validated options of one `lakelet query`. */
interface QueryArgs {
  path: string;
  rows: RowsOptions;
  format: RowFormat;
}

function queryArgs(argv: string[]): QueryArgs | 'help' {
  const args = parseArgs(argv, QUERY_SPECS, 'query');
  if (args.flags.has('help')) return 'help';
  const path = tablePath(args.positionals, 'query');
  const v = (name: string) => args.values.get(name);
  const rows: RowsOptions = {};
  const asOf = v('as-of');
  const from = v('from');
  const to = v('to');
  if (to !== undefined && from === undefined) throw new UsageError('option --to needs --from (an incremental query reads (from, to])');
  if (from !== undefined && asOf !== undefined) throw new UsageError('options --as-of and --from cannot be combined (use --to to bound an incremental query)');
  if (from !== undefined && args.flags.has('read-optimized')) throw new UsageError('options --read-optimized and --from cannot be combined');
  if (asOf !== undefined) rows.asOf = parseInstantArg(asOf, '--as-of');
  if (args.flags.has('read-optimized')) rows.readOptimized = true;
  if (from !== undefined) rows.from = parseInstantArg(from, '--from');
  if (to !== undefined) rows.to = parseInstantArg(to, '--to');
  const columns = v('columns');
  if (columns !== undefined) rows.columns = parseColumnList(columns, '--columns');
  const where = args.lists.get('where') ?? [];
  if (where.length > 0) rows.filters = where.map((w): Filter => parseFilter(w));
  const limit = v('limit');
  if (limit !== undefined) rows.limit = parseCount(limit, '--limit');
  const format = v('format') ?? 'jsonl';
  if (!(ROW_FORMATS as readonly string[]).includes(format)) throw new UsageError(`option --format must be one of ${ROW_FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
  return { path, rows, format: format as RowFormat };
}

async function queryCommand(argv: string[], io: CliIo): Promise<number> {
  const q = queryArgs(argv);
  if (q === 'help') return printText(io.stdout, QUERY_USAGE);
  const table = await open(q.path);
  const opts: RowsOptions = {
    ...q.rows,
    onWarning: (w) => io.stderr.write(`lakelet: warning: ${w.message.replace(/\s+/g, ' ')}\n`),
  };
  // The schema the rows are encoded by: as of the instant read (incremental: its end).
  const schemaAsOf = opts.from !== undefined ? opts.to : opts.asOf;
  const schema = await table.avroSchema(schemaAsOf === undefined ? {} : { asOf: schemaAsOf });
  const sink = new OutputSink(io.stdout);
  const rows = table.rows(opts);
  // Resolved before the first output (row-stream.ts), so headers never precede an error.
  await writeRowStream(rows, sink, () => rowWriter(q.format, opts.columns ?? schema.fields.map((f) => f.name), sink), (row) => jsonRow(row, schema));
  return 0;
}
