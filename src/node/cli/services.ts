// The CLI's table services: `lakelet compact|cluster|clean|archive|savepoint|restore|rollback <dir>` run one
// service of the Table API on a table directory and print one summary line (or one JSON document). Their help
// texts are services-help.ts's.
import type { CleanOptions, Table } from '../index.js';
import { HELP, onePositional, parseArgs, parseCount, UsageError, type OptionSpec, type ParsedArgs } from './args.js';
import { plural, printText, type CliOutput } from './output.js';
import { openForWrite } from './write.js';
import { SERVICE_USAGES } from './services-help.js';
import { cleanPlanText, compactionPlanText } from './dry-run.js';

export { SERVICES_SUMMARY, SERVICES_SYNOPSIS } from './services-help.js';

/** The table-service commands, by their CLI name. */
export const SERVICE_COMMANDS = ['compact', 'cluster', 'clean', 'archive', 'savepoint', 'restore', 'rollback'] as const;
/** One of {@link SERVICE_COMMANDS}. */
export type ServiceCommand = (typeof SERVICE_COMMANDS)[number];

/** Whether `name` is one of {@link SERVICE_COMMANDS}. */
export function isServiceCommand(name: string | undefined): name is ServiceCommand {
  return (SERVICE_COMMANDS as readonly string[]).includes(name ?? '');
}

/** Where the service commands print (the CLI's `CliIo`). */
export interface ServiceIo {
  stdout: CliOutput;
  stderr: CliOutput;
}

/** The help text of one service command. */
export function serviceUsage(command: ServiceCommand): string {
  return SERVICE_USAGES[command];
}

const JSON_FLAG: OptionSpec = { name: 'json', kind: 'flag' };
const INSTANT: OptionSpec = { name: 'instant', kind: 'value' };
/** `compact` and `clean`: print what the service would do (the Table's dry runs), change nothing. */
const DRY_RUN: OptionSpec = { name: 'dry-run', kind: 'flag' };
const SPECS: Record<ServiceCommand, OptionSpec[]> = {
  compact: [HELP, JSON_FLAG, DRY_RUN, { name: 'force', kind: 'flag' }, { name: 'no-force', kind: 'flag' }],
  cluster: [HELP, JSON_FLAG, { name: 'target-file-size', kind: 'value' }, { name: 'small-file-limit', kind: 'value' }, { name: 'sort-columns', kind: 'value' }, { name: 'layout', kind: 'value' }],
  clean: [HELP, JSON_FLAG, DRY_RUN, { name: 'policy', kind: 'value' }, { name: 'retain-commits', kind: 'value' }, { name: 'retain-file-versions', kind: 'value' }, { name: 'retain-hours', kind: 'value' }],
  archive: [HELP, JSON_FLAG, { name: 'keep-min', kind: 'value' }, { name: 'keep-max', kind: 'value' }],
  savepoint: [HELP, JSON_FLAG, INSTANT, { name: 'user', kind: 'value' }, { name: 'comments', kind: 'value' }, { name: 'delete', kind: 'value' }],
  restore: [HELP, JSON_FLAG, INSTANT],
  rollback: [HELP, JSON_FLAG, INSTANT, { name: 'force', kind: 'flag' }],
};

type Runner = (table: Table, args: ParsedArgs) => Promise<{ line: string; json: unknown }>;

/**
 * Run `lakelet <command>` with its arguments (after the command name): parse and check the options, open
 * the table directory, run the service and print one line (or one JSON document with `--json`). Bad
 * arguments throw a UsageError and failed services a LakeletError: the CLI's main turns both into its
 * one-line `lakelet: …` message and exit code 2.
 */
export async function serviceCommand(command: ServiceCommand, argv: string[], io: ServiceIo): Promise<number> {
  const args = parseArgs(argv, SPECS[command], command);
  if (args.flags.has('help')) return printText(io.stdout, SERVICE_USAGES[command]);
  const dir = onePositional(args.positionals, command);
  const run = RUNNERS[command](args); // check the options before touching the table
  const result = await run(await openForWrite(dir, command), args);
  return printText(io.stdout, args.flags.has('json') ? JSON.stringify(result.json) + '\n' : result.line + '\n');
}

const RUNNERS: Record<ServiceCommand, (args: ParsedArgs) => Runner> = {
  compact: compactRunner,
  cluster: clusterRunner,
  clean: cleanRunner,
  archive: archiveRunner,
  savepoint: savepointRunner,
  restore: restoreRunner,
  rollback: rollbackRunner,
};

function compactRunner(args: ParsedArgs): Runner {
  if (args.flags.has('force') && args.flags.has('no-force')) throw new UsageError('options --force and --no-force cannot be combined');
  const force = !args.flags.has('no-force');
  if (args.flags.has('dry-run')) {
    return async (table) => {
      const plan = await table.compactionPlan({ force });
      return { line: compactionPlanText(plan), json: { dryRun: true, ...plan } };
    };
  }
  return async (table) => {
    const results = await table.compact({ force });
    const sum = (f: (r: (typeof results)[number]) => number) => results.reduce((n, r) => n + f(r), 0);
    const json = { compactions: results };
    if (results.length === 0) {
      return { line: `nothing to compact (${force ? 'no file slice has log files' : 'the compaction trigger did not fire; --force compacts anyway'})`, json };
    }
    const instants = results.map((r) => r.instant).join(', ');
    const groups = sum((r) => r.fileGroups);
    const line = `${instants} compaction: ${plural(groups, 'file group')} compacted (${plural(sum((r) => r.logFilesCompacted), 'log file')} merged, ${plural(sum((r) => r.recordsWritten), 'record')} written)`;
    return { line, json };
  };
}

const LAYOUTS = ['linear', 'z-order', 'hilbert'] as const;

function clusterRunner(args: ParsedArgs): Runner {
  const options: NonNullable<Parameters<Table['cluster']>[0]> = {};
  const target = args.values.get('target-file-size');
  if (target !== undefined) options.targetFileSizeBytes = atLeastOne(target, '--target-file-size');
  const small = args.values.get('small-file-limit');
  if (small !== undefined) options.smallFileLimitBytes = atLeastOne(small, '--small-file-limit');
  const columns = args.values.get('sort-columns');
  if (columns !== undefined) {
    options.sortColumns = columns.split(',').map((c) => c.trim());
    if (options.sortColumns.some((c) => c === '')) throw new UsageError(`option --sort-columns needs column names separated by commas, got ${JSON.stringify(columns)}`);
  }
  const layout = args.values.get('layout');
  if (layout !== undefined) {
    const l = layout.trim().toLowerCase();
    if (!(LAYOUTS as readonly string[]).includes(l)) throw new UsageError(`option --layout must be one of ${LAYOUTS.join(', ')}, got ${JSON.stringify(layout)}`);
    if (options.sortColumns === undefined) throw new UsageError('option --layout needs --sort-columns');
    options.layout = l as (typeof LAYOUTS)[number];
  }
  return async (table) => {
    const result = await table.cluster(options);
    if (!result) return { line: 'nothing to cluster (no partition has small file groups to rewrite)', json: { clustering: null } };
    const sort = options.sortColumns ? `, sorted by ${options.sortColumns.join(', ')}${options.layout && options.layout !== 'linear' ? ` (${options.layout})` : ''}` : '';
    const line = `${result.instant} clustering: ${plural(result.fileGroupsReplaced, 'file group')} rewritten into ${plural(result.fileGroupsWritten, 'file group')} (${plural(result.recordsWritten, 'record')}, ${result.bytesWritten} bytes${sort})`;
    return { line, json: { clustering: result } };
  };
}

type CleaningPolicy = NonNullable<CleanOptions['policy']>;

const POLICIES: readonly CleaningPolicy[] = ['KEEP_LATEST_COMMITS', 'KEEP_LATEST_FILE_VERSIONS', 'KEEP_LATEST_BY_HOURS'];
const RETAIN_OPTIONS: Record<string, CleaningPolicy> = {
  'retain-commits': 'KEEP_LATEST_COMMITS',
  'retain-file-versions': 'KEEP_LATEST_FILE_VERSIONS',
  'retain-hours': 'KEEP_LATEST_BY_HOURS',
};

function cleanRunner(args: ParsedArgs): Runner {
  const given = Object.keys(RETAIN_OPTIONS).filter((o) => args.values.has(o));
  const policyText = args.values.get('policy');
  let policy: CleaningPolicy;
  if (policyText !== undefined) {
    const p = policyText.trim().toUpperCase().replace(/-/g, '_') as CleaningPolicy;
    if (!POLICIES.includes(p)) throw new UsageError(`option --policy must be one of ${POLICIES.join(', ')}, got ${JSON.stringify(policyText)}`);
    policy = p;
  } else {
    const implied = new Set(given.map((o) => RETAIN_OPTIONS[o]));
    if (implied.size > 1) throw new UsageError(`options ${given.map((o) => `--${o}`).join(' and ')} belong to different policies (give one, or --policy)`);
    policy = [...implied][0] ?? 'KEEP_LATEST_COMMITS';
  }
  const options: CleanOptions = { policy };
  for (const o of given) {
    if (RETAIN_OPTIONS[o] !== policy) throw new UsageError(`option --${o} applies to ${RETAIN_OPTIONS[o]}, not ${policy}`);
  }
  const commits = args.values.get('retain-commits');
  if (commits !== undefined) options.retainCommits = atLeastOne(commits, '--retain-commits');
  const versions = args.values.get('retain-file-versions');
  if (versions !== undefined) options.retainFileVersions = atLeastOne(versions, '--retain-file-versions');
  const hours = args.values.get('retain-hours');
  if (hours !== undefined) options.retainHours = parseHours(hours);
  if (args.flags.has('dry-run')) {
    return async (table) => {
      const plan = await table.cleanPlan(options);
      return { line: cleanPlanText(plan, `${policy}${retainText(options)}`), json: { dryRun: true, ...plan } };
    };
  }
  return async (table) => {
    const result = await table.clean(options);
    const oldest = (await table.retention()).oldestReadable?.instant ?? null;
    const json = { instant: result?.instant ?? null, policy, filesDeleted: result?.filesDeleted ?? 0, earliestInstantToRetain: result?.earliestInstantToRetain ?? null, oldestReadableInstant: oldest };
    const tail = oldest === null ? '' : `; oldest readable instant ${oldest}`;
    if (!result) return { line: `nothing to clean (${policy}${retainText(options)})${tail}`, json };
    return { line: `${result.instant} clean (${policy}${retainText(options)}): ${plural(result.filesDeleted, 'file')} deleted${tail}`, json };
  };
}

function retainText(o: CleanOptions): string {
  if (o.retainCommits !== undefined) return `, retain ${plural(o.retainCommits, 'commit')}`;
  if (o.retainFileVersions !== undefined) return `, retain ${plural(o.retainFileVersions, 'file version')}`;
  if (o.retainHours !== undefined) return `, retain ${plural(o.retainHours, 'hour')}`;
  return '';
}

function archiveRunner(args: ParsedArgs): Runner {
  const minText = args.values.get('keep-min');
  const maxText = args.values.get('keep-max');
  const keepMinCommits = minText === undefined ? 20 : atLeastOne(minText, '--keep-min');
  const keepMaxCommits = maxText === undefined ? Math.max(30, keepMinCommits + 10) : atLeastOne(maxText, '--keep-max');
  if (keepMaxCommits <= keepMinCommits) throw new UsageError(`option --keep-max (${keepMaxCommits}) must be greater than --keep-min (${keepMinCommits})`);
  return async (table) => {
    const archived = await table.archive({ keepMinCommits, keepMaxCommits });
    const active = table.timeline.length;
    const json = { archived: archived.map((i) => ({ requestedTime: i.requestedTime, action: i.action })), activeInstants: active, keepMinCommits, keepMaxCommits };
    if (archived.length === 0) {
      return { line: `nothing to archive (${plural(table.commits.length, 'completed commit')} active, keep-max ${keepMaxCommits}; ${plural(active, 'instant')} on the active timeline)`, json };
    }
    const first = archived[0]?.requestedTime ?? '';
    const last = archived[archived.length - 1]?.requestedTime ?? '';
    return { line: `archived ${plural(archived.length, 'instant')} (${first}${first === last ? '' : ` to ${last}`}); ${plural(active, 'instant')} remain on the active timeline`, json };
  };
}

function savepointRunner(args: ParsedArgs): Runner {
  const del = args.values.get('delete');
  if (del !== undefined) {
    const other = ['instant', 'user', 'comments'].find((o) => args.values.has(o));
    if (other !== undefined) throw new UsageError(`options --delete and --${other} cannot be combined`);
    const time = instantTime(del, '--delete');
    return async (table) => {
      await table.deleteSavepoint(time);
      return { line: `deleted savepoint ${time}`, json: { deleted: time } };
    };
  }
  const instantText = args.values.get('instant');
  const time = instantText === undefined ? undefined : instantTime(instantText, '--instant');
  const user = args.values.get('user');
  const comments = args.values.get('comments');
  return async (table) => {
    const result = await table.savepoint({ ...(time !== undefined && { instant: time }), ...(user !== undefined && { user }), ...(comments !== undefined && { comments }) });
    const md = result.metadata;
    const parts = Object.values(md.partitionMetadata);
    const files = parts.reduce((n, p) => n + p.savepointDataFile.length, 0);
    const json = { instant: result.instant, savepointedBy: md.savepointedBy, savepointedAt: new Date(md.savepointedAt).toISOString(), comments: md.comments, partitions: parts.length, files };
    return { line: `savepointed ${result.instant} (${plural(files, 'file')} in ${plural(parts.length, 'partition')} kept)`, json };
  };
}

function restoreRunner(args: ParsedArgs): Runner {
  const text = args.values.get('instant');
  if (text === undefined) throw new UsageError('restore: option --instant is required (the savepoint to restore; lakelet inspect lists them)');
  const time = instantTime(text, '--instant');
  return async (table) => {
    const result = await table.restore(time);
    const undone = result.rolledBack.map((i) => i.commitTime);
    const json = { instant: result.instant, savepoint: result.savepoint, rolledBack: result.rolledBack };
    return { line: `${result.instant} restore: table restored to savepoint ${result.savepoint}; ${plural(undone.length, 'write')} rolled back${undone.length > 0 ? ` (${undone.join(', ')})` : ''}`, json };
  };
}

function rollbackRunner(args: ParsedArgs): Runner {
  const text = args.values.get('instant');
  const time = text === undefined ? undefined : instantTime(text, '--instant');
  const force = args.flags.has('force');
  return async (table) => {
    const before = [...table.timeline];
    const result = await table.rollback(time, { force });
    const target = before.find((i) => i.requestedTime === result.rolledBack && i.action !== 'savepoint');
    // Table-service commits made after the write (compactions of its logs) are rolled back with it.
    const remaining = new Set(table.commits.map((i) => i.requestedTime));
    const alsoGone = before.filter((i) => i.state === 'COMPLETED' && i.action === 'commit' && i.requestedTime > result.rolledBack && !remaining.has(i.requestedTime)).map((i) => i.requestedTime);
    const what = target ? `${target.action} ${result.rolledBack}${target.state === 'COMPLETED' ? '' : ` (${target.state.toLowerCase()})`}` : result.rolledBack;
    const also = alsoGone.length > 0 ? ` and the ${alsoGone.length === 1 ? 'compaction' : 'compactions'} after it (${alsoGone.join(', ')})` : '';
    const json = { instant: result.instant, rolledBack: result.rolledBack, action: target?.action ?? null, alsoRolledBack: alsoGone, filesDeleted: result.filesDeleted, unfinished: result.unfinished ?? null };
    // Took effect, but a later step failed: the pending rollback is finished by the next write (exit 0).
    const rest = result.unfinished === undefined ? '' : `; not finished (${result.unfinished.replace(/\s+/g, ' ')}): the next write or rollback finishes it`;
    return { line: `${result.instant} rollback: rolled back ${what}${also}; ${plural(result.filesDeleted, 'file')} deleted${rest}`, json };
  };
}

/** An instant time argument: exactly yyyyMMddHHmmss or yyyyMMddHHmmssSSS. */
function instantTime(text: string, option: string): string {
  const s = text.trim();
  if (!/^\d{14}(\d{3})?$/.test(s)) throw new UsageError(`option ${option} needs an instant time (yyyyMMddHHmmss[SSS]), got ${JSON.stringify(text)}`);
  return s;
}

function atLeastOne(text: string, option: string): number {
  const n = parseCount(text, option);
  if (n < 1) throw new UsageError(`option ${option} needs a whole number ≥ 1, got ${JSON.stringify(text)}`);
  return n;
}

function parseHours(text: string): number {
  const s = text.trim();
  if (!/^\d+(\.\d+)?$/.test(s)) throw new UsageError(`option --retain-hours needs a number of hours ≥ 0, got ${JSON.stringify(text)}`);
  return Number(s);
}


