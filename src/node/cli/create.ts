// `lakelet create`: make an empty Hudi table (table version 6) in a directory, making the directory when it is
// missing and removing it again when the create fails.
import { mkdir, readFile, rmdir, stat } from 'node:fs/promises';
import { createTable, isLakeletError, LakeletError, nodeFsStorage, type CreateTableOptions, type Table, type TableType } from '../index.js';
import { HELP, onePositional, parseArgs, parseColumnList, UsageError, type OptionSpec } from './args.js';
import { printText } from './output.js';
import type { WriteIo } from './write.js';

type KeyGeneratorKind = Extract<NonNullable<CreateTableOptions['keyGenerator']>, string>;

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
const TABLE_TYPES: Record<string, TableType> = { COPY_ON_WRITE: 'COPY_ON_WRITE', COW: 'COPY_ON_WRITE', MERGE_ON_READ: 'MERGE_ON_READ', MOR: 'MERGE_ON_READ' };
const KEY_GENERATORS: readonly KeyGeneratorKind[] = ['SIMPLE', 'COMPLEX', 'NON_PARTITION'];

function required(values: Map<string, string>, name: string, command: string): string {
  const v = values.get(name);
  if (v === undefined || v.trim() === '') throw new UsageError(`${command}: option --${name} is required (see lakelet ${command} --help)`);
  return v.trim();
}

/** `lakelet create`: parse the options, make the directory when missing and create the table in it. */
export async function createCommand(argv: string[], io: WriteIo): Promise<number> {
  const args = parseArgs(argv, CREATE_SPECS, 'create');
  if (args.flags.has('help')) return printText(io.stdout, CREATE_USAGE);
  const dir = onePositional(args.positionals, 'create');
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
    return printText(io.stdout, JSON.stringify(report, null, 2) + '\n');
  }
  const parts = [`record key ${c.recordKeyFields.join(',')}`];
  if (c.orderingFields.length > 0) parts.push(`ordering ${c.orderingFields.join(',')}`);
  parts.push(c.partitionFields.length > 0 ? `partitioned by ${c.partitionFields.join(',')}${c.hiveStylePartitioning ? '' : ' (not hive-style)'}` : 'not partitioned');
  return printText(io.stdout, `created ${c.tableType} table ${c.name} in ${dir} (${parts.join('; ')})\n`);
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
