// `--evolve-schema` of the CLI's upsert, insert and bulk-insert: reading an input whose rows have columns the
// table lacks (or numbers its types cannot hold) and the write schema that takes them. Without the flag such an
// input is refused before anything is written, naming the new columns; with it the table schema gains them as
// nullable columns (and promotions), which the write checks against Hudi's evolution rules.
import { avroSchemaToJson, evolveSchemaForRows, LakeletError, type AvroRecordSchema, type RowsSchemaEvolution } from '../index.js';
import { UsageError } from './args.js';
import { readInputFile, type InputFormat, type InputRows } from './input.js';
import type { CliOutput } from './output.js';

/** The `--evolve-schema` lines of a write command's help. */
export const EVOLVE_SCHEMA_HELP = `  --evolve-schema        the input may have columns the table lacks: they are
                         added as nullable columns (types inferred from the
                         values), and int/long columns holding larger numbers or
                         fractions are promoted (to long, double), as Hudi's
                         schema evolution allows; without it such input is refused
`;

/** What the write reads: the rows, and the new write schema (Avro JSON) when the input evolves the table's. */
export interface EvolvingInput {
  rows: InputRows;
  schema?: unknown;
}

/** Options of {@link readWriteInput}. */
export interface WriteInputOptions {
  path: string;
  format: InputFormat;
  /** The table's data fields (no meta fields); undefined for a table without a schema yet. */
  schema: AvroRecordSchema | undefined;
  evolve: boolean;
  command: string;
  /** Where the schema change is announced (one line); undefined for quiet. */
  stderr?: CliOutput;
}

/**
 * Read a write command's input. With a table schema and without `evolve`, columns the table lacks →
 * `INVALID_ARGUMENT` naming all of them and `--evolve-schema`. With `evolve`, the input is read once without
 * types to find the schema its values need ({@link evolveSchemaForRows}), then typed by that schema, which is
 * returned (when it differs) for the write's `schema` option. `delete` reads its input typed by the table schema,
 * as before, and takes no `--evolve-schema`.
 */
export async function readWriteInput(o: WriteInputOptions): Promise<EvolvingInput> {
  if (o.evolve && o.command === 'delete') throw new UsageError('option --evolve-schema is not for delete');
  if (o.schema === undefined || o.command === 'delete') return { rows: await readInputFile(o.path, o.format, o.schema) };
  if (!o.evolve) {
    let rows: InputRows;
    let headerLine: number | undefined;
    try {
      rows = await readInputFile(o.path, o.format, o.schema);
    } catch (err) {
      // CSV refuses an unknown header column while parsing: name every new column instead.
      if (!isUnknownColumn(err)) throw err;
      headerLine = typeof err.context.line === 'number' ? err.context.line : undefined;
      rows = await readInputFile(o.path, o.format, undefined);
    }
    refuseNewColumns(rows, evolveSchemaForRows(o.schema, rows.rows).added, o, headerLine);
    return { rows };
  }
  const raw = await readInputFile(o.path, o.format, undefined);
  const plan = evolveSchemaForRows(o.schema, raw.rows);
  if (plan.added.length === 0 && plan.promoted.length === 0) return { rows: o.format === 'parquet' ? raw : await readInputFile(o.path, o.format, o.schema) };
  o.stderr?.write(`${o.command}: the table schema evolves: ${evolutionText(plan)}\n`);
  const rows = o.format === 'parquet' ? raw : await readInputFile(o.path, o.format, plan.schema);
  return { rows, schema: avroSchemaToJson(plan.schema) };
}

function isUnknownColumn(err: unknown): err is LakeletError {
  return err instanceof LakeletError && err.code === 'INVALID_ARGUMENT' && typeof err.context.field === 'string' && err.message.includes('is not in the table schema');
}

/** New columns → `input: <file> line <n>: column(s) ... not in the table schema (...); pass --evolve-schema ...`. */
function refuseNewColumns(rows: InputRows, added: readonly string[], o: WriteInputOptions, headerLine: number | undefined): void {
  if (added.length === 0) return;
  const first = rows.rows.findIndex((r) => added.some((n) => n in r));
  const line = headerLine ?? rows.lines?.[first];
  const one = added.length === 1;
  const names = added.map((n) => JSON.stringify(n)).join(', ');
  const table = (o.schema?.fields ?? []).map((f) => f.name).join(', ');
  throw new LakeletError(
    'INVALID_ARGUMENT',
    `input: ${o.path}${line === undefined ? '' : ` line ${line}`}: ${one ? 'column' : 'columns'} ${names} ${one ? 'is' : 'are'} not in the table schema (${table}); pass --evolve-schema to add ${one ? 'it as a nullable column' : 'them as nullable columns'}`,
    { path: o.path, ...(line !== undefined && { line }), fields: [...added] },
  );
}

/** `added extra, note; n long -> double`. */
export function evolutionText(plan: RowsSchemaEvolution): string {
  const parts: string[] = [];
  if (plan.added.length > 0) parts.push(`added ${plan.added.join(', ')}`);
  for (const p of plan.promoted) parts.push(`${p.field} ${p.from} -> ${p.to}`);
  return parts.join('; ');
}
