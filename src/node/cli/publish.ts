// `lakelet publish <dir>`: writes the listing manifest of a table directory (publish.ts) so the table can be
// read over plain HTTP hosting that cannot list directories.
import { parseArgs, UsageError, type OptionSpec } from './args.js';
import { OutputSink, type CliOutput } from './output.js';
import { publishListing } from '../index.js';

/** Help text of `lakelet publish`. */
export const PUBLISH_USAGE = `Usage: lakelet publish <dir>

Writes .hoodie/.aux/lakelet/listing.json into the table directory <dir>: every
file below it with its size, sorted by path. Upload the directory afterwards;
readers on static hosting (httpStorage) list the table from that file instead
of a directory index. Run it again after every write.

Options:
  -h, --help   this help
`;

const SPECS: OptionSpec[] = [{ name: 'help', short: 'h', kind: 'flag' }];

/**
 * Run `lakelet publish` with its arguments (after the command name); prints one summary line and returns 0.
 * Bad arguments throw a UsageError and storage problems a LakeletError: the CLI's main turns both into
 * its one-line `lakelet: …` message and exit code 2.
 */
export async function publishCommand(args: string[], io: { stdout: CliOutput; stderr: CliOutput }): Promise<number> {
  const parsed = parseArgs(args, SPECS, 'publish');
  const sink = new OutputSink(io.stdout);
  if (parsed.flags.has('help')) {
    sink.push(PUBLISH_USAGE);
    await sink.flush();
    return 0;
  }
  if (parsed.positionals.length !== 1) {
    throw new UsageError(parsed.positionals.length === 0 ? 'publish: missing <dir> (the table directory; see lakelet publish --help)' : `publish: unexpected argument ${JSON.stringify(parsed.positionals[1])} (only one <dir>)`);
  }
  const result = await publishListing(parsed.positionals[0] as string);
  sink.push(`published ${result.files} files (${result.bytes} bytes) in ${result.manifestPath}\n`);
  await sink.flush();
  return 0;
}
