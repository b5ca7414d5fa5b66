// `lakelet validate <table>`: runs validateTable (the metadata table validator) and prints each problem with its
// check and path, or the result object with --json. Exit 0 when the table is clean, 2 on any problem.
import { storageForPath, validateTable, type ValidationResult } from '../index.js';
import { HELP, parseArgs, UsageError, type OptionSpec } from './args.js';
import { OutputSink, type CliOutput } from './output.js';

/** Help text of `lakelet validate`. */
export const VALIDATE_USAGE = `Usage: lakelet validate <table> [--json]

Checks a table against its timeline and its metadata table, as Hudi's metadata
table validator does, and prints every difference with its path:
  files-exist         every live file a completed instant wrote is in storage
  files-partition     the metadata table's files partition lists exactly the
                      committed files in storage (names and sizes) and their
                      partitions
  record-index        record_index maps every key of the latest snapshot to
                      the partition and file group holding it, and no other key
  column-stats        column_stats equal the statistics of the latest files
  partition-stats     partition_stats equal their fold per partition
  metadata-structure  file groups, key placement, deltacommits and
                      hoodie.table.metadata.partitions of the metadata table
A table without a metadata table is checked for files-exist only. The table
is only read.

Options:
  --json       print the result object: { ok, problems: [{ check, path,
               message }], checked }
  -h, --help   this help

Exit status: 0 when no problem was found, 2 on any problem (or when the table
cannot be read).
`;

const SPECS: OptionSpec[] = [HELP, { name: 'json', kind: 'flag' }];

/** Exit code of a table with problems. */
const EXIT_PROBLEMS = 2;

/** The text report: one line per problem (`<check>  <path>: <message>`), then a summary line. */
export function validateText(result: ValidationResult, path: string): string {
  const lines = result.problems.map((p) => `${p.check}  ${p.path === '' ? '(table)' : p.path}: ${p.message.replace(/\s+/g, ' ')}`);
  const n = result.problems.length;
  lines.push(n === 0 ? `${path}: ok (checked ${result.checked.join(', ')})` : `${path}: ${n} problem${n === 1 ? '' : 's'} (checked ${result.checked.join(', ')})`);
  return lines.join('\n') + '\n';
}

/**
 * Run `lakelet validate` with its arguments (after the command name). Returns 0 when the table validates clean,
 * 2 when any problem was found; bad arguments throw a UsageError and an unreadable table a LakeletError (the CLI's
 * main prints them as one line, exit 2).
 */
export async function validateCommand(args: string[], io: { stdout: CliOutput; stderr: CliOutput }): Promise<number> {
  const parsed = parseArgs(args, SPECS, 'validate');
  const sink = new OutputSink(io.stdout);
  if (parsed.flags.has('help')) {
    sink.push(VALIDATE_USAGE);
    await sink.flush();
    return 0;
  }
  if (parsed.positionals.length !== 1) {
    throw new UsageError(parsed.positionals.length === 0 ? 'validate: missing <table> (a table directory or .zip; see lakelet validate --help)' : `validate: unexpected argument ${JSON.stringify(parsed.positionals[1])} (only one <table>)`);
  }
  const path = parsed.positionals[0] as string;
  const result = await validateTable(await storageForPath(path));
  sink.push(parsed.flags.has('json') ? JSON.stringify(result, null, 2) + '\n' : validateText(result, path));
  await sink.flush();
  return result.ok ? 0 : EXIT_PROBLEMS;
}
