// `lakelet catalog …`: `ddl` prints the Hive sync statements of a table (hiveSyncStatements), `list` the
// catalog of a directory of tables, `register` / `drop` change it.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dropTable, hiveSyncStatements, listTables, nodeFsStorage, openTable, registerTable, storageForPath, type CatalogEntry } from '../index.js';
import { HELP, parseArgs, parseCount, parseInstantArg, UsageError, type OptionSpec } from './args.js';
import { OutputSink, type CliOutput } from './output.js';

/** Help text of `lakelet catalog`. */
export const CATALOG_USAGE = `Usage:
  lakelet catalog ddl <table> [--database d] [--base-path s3a://...] [--since <instant>]
                      [--table-name n] [--support-timestamp] [--batch-size n]
  lakelet catalog list <root> [--json]
  lakelet catalog register <root> <path> [--name n]
  lakelet catalog drop <root> <name> [--delete-files]

ddl prints the HiveQL statements Hudi's HiveSyncTool issues for the table, one
per line, each ending with ';': without --since a first sync (CREATE EXTERNAL
TABLE, one for copy-on-write, <name>_ro and <name>_rt for merge-on-read, and
ADD PARTITION for every partition); with --since (the last_commit_time_sync of
the previous sync) REPLACE COLUMNS when the schema changed, ADD and DROP
PARTITION for partitions added and deleted since, and the new
last_commit_time_sync. Nothing is printed when nothing was committed since.

list prints the tables registered in the catalog of a directory (name, type,
table version, latest instant, partitions, path); register adds (or refreshes)
the table in the folder <path> below <root>; drop removes an entry, and with
--delete-files the table's files too.

Options:
  --database <d>        Hive database (default: default)
  --base-path <uri>     the table's path as engines see it (default: the
                        file:// URL of <table>)
  --since <instant>     the previous sync's last_commit_time_sync
                        (yyyyMMddHHmmss[SSS], or an ISO-8601 date/time in UTC)
  --since-completion <t>
                        its last_commit_completion_time_sync (layout 2: writes
                        requested before --since but completed after it count)
  --table-name <n>      Hive table name (default: hoodie.table.name)
  --support-timestamp   timestamps as TIMESTAMP (default: bigint, as Hudi)
  --batch-size <n>      partitions per ADD / DROP statement (default 1000)
  --name <n>            catalog name (default: hoodie.table.name)
  --delete-files        drop: delete the table's files too
  --json                list: the entries as JSON
  -h, --help            this help
`;

const SPECS: OptionSpec[] = [
  HELP,
  { name: 'database', kind: 'value' },
  { name: 'base-path', kind: 'value' },
  { name: 'since', kind: 'value' },
  { name: 'since-completion', kind: 'value' },
  { name: 'table-name', kind: 'value' },
  { name: 'support-timestamp', kind: 'flag' },
  { name: 'batch-size', kind: 'value' },
  { name: 'name', kind: 'value' },
  { name: 'delete-files', kind: 'flag' },
  { name: 'json', kind: 'flag' },
];

/** Which options each subcommand takes (besides --help). */
const ALLOWED: Record<string, readonly string[]> = {
  ddl: ['database', 'base-path', 'since', 'since-completion', 'table-name', 'support-timestamp', 'batch-size'],
  list: ['json'],
  register: ['name'],
  drop: ['delete-files'],
};
const POSITIONALS: Record<string, readonly string[]> = { ddl: ['<table>'], list: ['<root>'], register: ['<root>', '<path>'], drop: ['<root>', '<name>'] };

/** The text listing: one line per table. */
export function catalogText(entries: readonly CatalogEntry[]): string {
  if (entries.length === 0) return '(no tables in the catalog)\n';
  const rows = entries.map((e) => [e.name, e.type, `v${e.version}`, e.latestInstant ?? '-', `${e.partitions.length} partition${e.partitions.length === 1 ? '' : 's'}`, e.path === '' ? '.' : e.path]);
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] as string).length))) ?? [];
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] as number))).join('  ')).join('\n') + '\n';
}

/** Run `lakelet catalog <subcommand> …` (arguments after `catalog`). Bad arguments throw a UsageError. */
export async function catalogCommand(args: string[], io: { stdout: CliOutput; stderr: CliOutput }): Promise<number> {
  const sink = new OutputSink(io.stdout);
  const sub = args[0];
  if (sub === undefined || sub === '--help' || sub === '-h') {
    if (sub === undefined) throw new UsageError('catalog: missing subcommand (ddl, list, register or drop; see lakelet catalog --help)');
    sink.push(CATALOG_USAGE);
    await sink.flush();
    return 0;
  }
  const allowed = ALLOWED[sub];
  const wanted = POSITIONALS[sub];
  if (!allowed || !wanted) throw new UsageError(`catalog: unknown subcommand ${JSON.stringify(sub)} (ddl, list, register or drop)`);
  const parsed = parseArgs(args.slice(1), SPECS, `catalog ${sub}`);
  if (parsed.flags.has('help')) {
    sink.push(CATALOG_USAGE);
    await sink.flush();
    return 0;
  }
  for (const name of [...parsed.flags, ...parsed.values.keys()]) {
    if (!allowed.includes(name)) throw new UsageError(`catalog ${sub}: option --${name} does not apply (see lakelet catalog --help)`);
  }
  if (parsed.positionals.length !== wanted.length) {
    throw new UsageError(parsed.positionals.length < wanted.length ? `catalog ${sub}: missing ${wanted[parsed.positionals.length]}` : `catalog ${sub}: unexpected argument ${JSON.stringify(parsed.positionals[wanted.length])}`);
  }
  const [first, second] = parsed.positionals as [string, string];
  const v = (name: string) => parsed.values.get(name);
  if (sub === 'ddl') {
    const since = v('since');
    const batch = v('batch-size');
    const table = await openTable(await storageForPath(first));
    const statements = await hiveSyncStatements(table, {
      basePath: v('base-path') ?? pathToFileURL(resolve(first)).href,
      ...(v('database') !== undefined ? { database: v('database') as string } : {}),
      ...(since !== undefined ? { since: parseInstantArg(since, '--since') } : {}),
      ...(v('since-completion') !== undefined ? { sinceCompletion: v('since-completion') as string } : {}),
      ...(v('table-name') !== undefined ? { tableName: v('table-name') as string } : {}),
      ...(parsed.flags.has('support-timestamp') ? { supportTimestamp: true } : {}),
      ...(batch !== undefined ? { batchSize: parseCount(batch, '--batch-size') } : {}),
    });
    for (const s of statements) sink.push(`${s};\n`);
  } else if (sub === 'list') {
    const entries = await listTables(nodeFsStorage(first));
    sink.push(parsed.flags.has('json') ? `${JSON.stringify(entries, null, 2)}\n` : catalogText(entries));
  } else if (sub === 'register') {
    const entry = await registerTable(nodeFsStorage(first), second, v('name') !== undefined ? { name: v('name') as string } : {});
    sink.push(`registered ${entry.name} (${entry.path})\n`);
  } else {
    const entry = await dropTable(nodeFsStorage(first), second, { deleteFiles: parsed.flags.has('delete-files') });
    sink.push(`dropped ${entry.name} (${entry.path})${parsed.flags.has('delete-files') ? ', files deleted' : ''}\n`);
  }
  await sink.flush();
  return 0;
}
