// `lakelet replicate <src> <dst> [--mode push|pull|rebase]`: brings a copy of a table (a local directory or an
// S3 location) up to the source's completed timeline, pulls its new commits back, or rebases the source's
// writes onto it, with replicate() (src/replication/), printing a summary line (or JSON).
import { nodeFsStorage, replicate, s3Storage, storageForPath, type ReplicateMode, type ReplicateResult, type Storage } from '../index.js';
import { HELP, parseArgs, UsageError, type OptionSpec } from './args.js';
import { OutputSink, type CliOutput } from './output.js';

/** Help text of `lakelet replicate`. */
export const REPLICATE_USAGE = `Usage: lakelet replicate <src> <dst> [options]

Copies every completed instant of the table <src> that <dst> lacks, in timeline
order: data files first, then each instant's timeline files, its completed file
last (created only if absent), so a reader of <dst> never sees a partial
commit. Cleans, compactions, rollbacks, restores, savepoints, archival and the
metadata table are carried over too. Run it again after a crash or a lost
connection: files already there with the same size are not copied again.
A <dst> that someone else wrote to stops it with a CONFLICT naming the first
diverging instant, unless --mode says otherwise:

  push    (default) copy <src>'s instants into <dst>, as above
  pull    bring <dst>'s new commits into <src>; when both diverged, as rebase
  rebase  when <dst> diverged, replay <src>'s unpublished writes on <dst> as
          new commits (upsert/insert/delete, ordering values kept, so the
          table's ordering field settles conflicting updates), then make <src>
          equal to <dst>; otherwise push

<src> and <dst> are table directories or s3://bucket/prefix locations (<dst> may
be an empty or missing directory). S3 credentials come from AWS_ACCESS_KEY_ID,
AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN.

Options:
  --endpoint <url>  S3 endpoint (default AWS_ENDPOINT_URL, else AWS's endpoint
                    of the region)
  --region <name>   S3 signing region (default AWS_REGION, else us-east-1)
  --mode <mode>     push, pull or rebase (default push)
  --json            print the result object instead of a summary line
  -h, --help        this help
`;

const SPECS: OptionSpec[] = [HELP, { name: 'json', kind: 'flag' }, { name: 'endpoint', kind: 'value' }, { name: 'region', kind: 'value' }, { name: 'mode', kind: 'value' }];
const MODES: readonly ReplicateMode[] = ['push', 'pull', 'rebase'];

/** Where the S3 locations of the command line are served. */
interface S3Settings {
  endpoint: string | undefined;
  region: string;
  env: Record<string, string | undefined>;
}

/** A Storage for `s3://bucket/prefix`, or undefined when `location` is not an S3 URL. */
export function s3Location(location: string, settings: S3Settings): Storage | undefined {
  const m = /^s3a?:\/\/([^/]+)\/?(.*)$/.exec(location);
  if (!m) return undefined;
  const accessKeyId = settings.env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = settings.env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) throw new UsageError(`replicate: ${location} needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment`);
  const sessionToken = settings.env.AWS_SESSION_TOKEN;
  const endpoint = settings.endpoint ?? `https://s3.${settings.region}.amazonaws.com`;
  return s3Storage({ endpoint, bucket: m[1] as string, prefix: (m[2] as string).replace(/\/+$/, ''), region: settings.region, credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } });
}

/** The one-line summary of a replication. */
export function replicateSummary(result: ReplicateResult, dst: string, src = 'the source'): string {
  const n = result.published.length;
  if (result.direction === 'none') return `nothing to pull: ${dst} has no commits ${src} lacks\n`;
  const replayed = result.replayed.length > 0 ? `${result.replayed.length} write${result.replayed.length === 1 ? '' : 's'} replayed on ${dst}, ` : '';
  const parts = [`${replayed}${n} instant${n === 1 ? '' : 's'} ${result.direction === 'push' ? `published to ${dst}` : `pulled into ${src}`}`];
  if (result.metadataPublished.length > 0) parts.push(`${result.metadataPublished.length} metadata-table instants`);
  if (result.reverted.length > 0) parts.push(`${result.reverted.length} rolled-back instants taken back`);
  parts.push(`${result.filesCopied} files (${result.bytesCopied} bytes) copied`, `${result.filesDeleted} deleted`);
  return `${n === 0 && result.filesCopied === 0 && result.filesDeleted === 0 ? 'up to date: ' : ''}${parts.join(', ')}\n`;
}

/**
 * Run `lakelet replicate` with its arguments (after the command name); prints the summary and returns 0.
 * Bad arguments throw a UsageError and replication failures (CONFLICT, storage errors) a LakeletError: the
 * CLI's main prints either as one line with exit code 2.
 */
export async function replicateCommand(args: string[], io: { stdout: CliOutput; stderr: CliOutput }, env: Record<string, string | undefined> = process.env): Promise<number> {
  const parsed = parseArgs(args, SPECS, 'replicate');
  const sink = new OutputSink(io.stdout);
  if (parsed.flags.has('help')) {
    sink.push(REPLICATE_USAGE);
    await sink.flush();
    return 0;
  }
  const [src, dst, extra] = parsed.positionals;
  if (src === undefined || dst === undefined) throw new UsageError('replicate: needs <src> and <dst> (see lakelet replicate --help)');
  if (extra !== undefined) throw new UsageError(`replicate: unexpected argument ${JSON.stringify(extra)} (only <src> and <dst>)`);
  const settings: S3Settings = { endpoint: parsed.values.get('endpoint') ?? env.AWS_ENDPOINT_URL, region: parsed.values.get('region') ?? env.AWS_REGION ?? 'us-east-1', env };
  const source = s3Location(src, settings) ?? (await storageForPath(src));
  const target = s3Location(dst, settings) ?? nodeFsStorage(dst);
  const mode = parsed.values.get('mode') ?? 'push';
  if (!MODES.includes(mode as ReplicateMode)) throw new UsageError(`replicate: --mode must be push, pull or rebase, got ${JSON.stringify(mode)}`);
  const result = await replicate(source, target, { mode: mode as ReplicateMode });
  sink.push(parsed.flags.has('json') ? `${JSON.stringify(result)}\n` : replicateSummary(result, dst, src));
  await sink.flush();
  return 0;
}
