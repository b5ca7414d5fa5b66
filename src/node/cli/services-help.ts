// Help texts of the CLI's table-service commands (services.ts runs them): the lines of the top-level usage and
// each command's own usage (`lakelet help <command>`, `lakelet <command> --help`).
import type { ServiceCommand } from './services.js';

/** The lines of the top-level usage that list the service commands (synopsis, then descriptions). */
export const SERVICES_SYNOPSIS = `  lakelet compact|clean|archive|rollback <dir> [options]
  lakelet cluster <dir> [--sort-columns <a,b>] [--layout <l>] [options]
  lakelet savepoint <dir> [--instant <t>] | --delete <t>
  lakelet restore <dir> --instant <savepoint>`;

/** Descriptions of the service commands for the top-level usage's command list. */
export const SERVICES_SUMMARY = `  compact   merge a merge-on-read table's log files into new base files
  cluster   rewrite small file groups into fewer, sorted ones (a replacecommit)
  clean     delete file versions no retained commit needs
  archive   move old instants from the active to the archived timeline
  savepoint keep a commit readable (and restorable); --delete removes one
  restore   roll the table back to a savepoint
  rollback  undo a crashed (pending) write, else the latest commit`;

const COMMON = `  --json                 print the result as one JSON document
  -h, --help             this help`;

/** The help text of each service command (`lakelet help <command>`). */
export const SERVICE_USAGES: Record<ServiceCommand, string> = {
  compact: `Usage: lakelet compact <dir> [--force | --no-force] [--dry-run] [--json]

Compacts a merge-on-read table: schedules a compaction of every file slice
with log files (unless one is pending) and runs all pending compactions. Each
compaction merges base file and logs into a new base file and completes as a
commit; queries return the same rows, read-optimized queries now see them.

Options:
  --force                compact every slice with log files (default)
  --no-force             schedule only when the compaction trigger fires (5
                         deltacommits since the last compaction); still runs
                         pending compactions
  --dry-run              print the file slices it would compact (pending
                         plans' and the new plan's) and change nothing
${COMMON}
`,
  cluster: `Usage: lakelet cluster <dir> [--target-file-size <bytes>] [--small-file-limit <bytes>]
                           [--sort-columns <a,b>] [--layout linear|z-order|hilbert] [--json]

Clusters the table (Hudi's clustering): per partition, the file groups whose
base file is below the small-file limit are rewritten into new file groups of
about the target size, their rows sorted by the sort columns, and the table
completes a replacecommit naming the groups it replaced. Queries return the
same rows (commit times kept); filters on the sort columns read fewer files.
The cleaner removes the replaced files later. A clustering that crashed is
re-run first. Writes to file groups of a pending clustering are refused.

Options:
  --target-file-size <b> size of the files written (default 1073741824)
  --small-file-limit <b> base files below this are clustered (default 314572800)
  --sort-columns <a,b>   columns the rows are sorted by (default: none)
  --layout <l>           linear (default), z-order or hilbert (up to 4 sort
                         columns): how the sort columns are combined
${COMMON}
`,
  clean: `Usage: lakelet clean <dir> [--policy <policy>] [--retain-* <n>] [--dry-run] [--json]

Deletes file versions (base and log files) that no retained commit reads.
Time travel to an instant before the oldest readable one fails afterwards;
savepointed commits stay readable.

Options:
  --policy <policy>           KEEP_LATEST_COMMITS (default), KEEP_LATEST_FILE_VERSIONS
                              or KEEP_LATEST_BY_HOURS (default: the policy of the
                              --retain-* option given)
  --retain-commits <n>        KEEP_LATEST_COMMITS: the latest n commits stay
                              readable (default 10)
  --retain-file-versions <n>  KEEP_LATEST_FILE_VERSIONS: file versions kept per
                              file group (default 3)
  --retain-hours <n>          KEEP_LATEST_BY_HOURS: commits of the last n hours stay
                              readable (default 24)
  --dry-run                   print the files it would delete and change nothing
${COMMON}
`,
  archive: `Usage: lakelet archive <dir> [--keep-min <n>] [--keep-max <n>] [--json]

Once the active timeline holds more than keep-max completed commits, moves the
oldest to the archived timeline (.hoodie/archived/) until keep-min remain. It
never archives past a pending write, the first savepoint or the latest clean's
earliest commit to retain. Queries read the same rows afterwards.

Options:
  --keep-min <n>         commits kept active (default 20)
  --keep-max <n>         commits active before archiving starts (default 30;
                         must exceed --keep-min)
${COMMON}
`,
  savepoint: `Usage: lakelet savepoint <dir> [--instant <t>] [--user <u>] [--comments <c>] [--json]
       lakelet savepoint <dir> --delete <t> [--json]

Savepoints a completed commit (default the latest): the cleaner keeps the files
of its snapshot, time travel to it keeps working and lakelet restore can roll
the table back to it. With --delete, removes the savepoint at <t> (its files
become cleanable; the commit itself stays).

Options:
  --instant <t>          the commit to savepoint (yyyyMMddHHmmss[SSS])
  --user <u>             savepointedBy (default lakelet)
  --comments <c>         a comment stored with the savepoint
  --delete <t>           delete the savepoint at <t> instead
${COMMON}
`,
  restore: `Usage: lakelet restore <dir> --instant <savepoint> [--json]

Rolls the table back to a savepoint: every write after it is undone (newest
first) under one restore instant, and the latest snapshot becomes the
savepoint's. lakelet inspect lists the savepoints.

Options:
  --instant <t>          the savepoint to restore (required)
${COMMON}
`,
  rollback: `Usage: lakelet rollback <dir> [--instant <t>] [--force] [--json]

Undoes a write: by default the newest pending write (one that crashed or is
still running) if there is one, else the latest completed commit; or the
given instant when it is pending or the latest completed write. Older commits
cannot be rolled back alone (restore a savepoint instead).

A pending write whose heartbeat is younger than the heartbeat timeout (60 s)
may still be running on another process or machine: rolling it back is
refused (exit 2, nothing changes) until the timeout has passed, unless
--force. A forced rollback of a writer that is in fact alive makes that writer
fail (ABORTED) instead of committing.

Options:
  --instant <t>          the write to roll back (default: the newest pending
                         write, else the latest commit)
  --force                roll back a pending write even if its heartbeat is
                         alive (you know its writer is gone)
${COMMON}
`,
};

