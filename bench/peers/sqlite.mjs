// SQLite peer (better-sqlite3, native): the merge-on-read upsert's counterpart. A file database in WAL mode with
// synchronous=FULL (every commit fsyncs the WAL), a trips table keyed by uuid, the base rows loaded untimed, then
// the batch timed as one transaction of `INSERT … ON CONFLICT(uuid) DO UPDATE` (the later ts wins, as Hudi's
// ordering field). better-sqlite3 is not in package.json (on Node 20 it compiles SQLite from source during
// `npm ci`, over a minute on 2 cores): install it with `npm install --no-save better-sqlite3@12.11.1`; without it the
// phase reports { skipped } and the bench prints why.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { tripRows, upsertBatch } from '../data.mjs';
import { timedStep } from './durable.mjs';

/** The SQLite driver the bench is written for (12.x: 13 crashes on Node 20). */
export const SQLITE_DRIVER = 'better-sqlite3@12.11.1';

const FIELDS = ['uuid', 'ts', 'rider', 'driver', 'begin_lat', 'begin_lon', 'end_lat', 'end_lon', 'fare', 'city'];

/** better-sqlite3's Database class, or undefined when the package is not installed (or failed to build). */
async function loadDriver() {
  try {
    return (await import('better-sqlite3')).default;
  } catch {
    return undefined;
  }
}

/**
 * args: { dir, rows, upsert }. Untimed: creating the database, inserting the base rows (one transaction) and a
 * WAL checkpoint (TRUNCATE), so the timed step starts from an empty WAL. Timed: the batch in one transaction of
 * prepared `INSERT … ON CONFLICT DO UPDATE … WHERE excluded.ts >= trips.ts`; its COMMIT fsyncs the WAL
 * (synchronous=FULL), which is when the step ends.
 */
export async function sqliteUpsert(args) {
  const Database = await loadDriver();
  if (!Database) return { skipped: `better-sqlite3 not installed: npm install --no-save ${SQLITE_DRIVER} (builds from source on Node 20)` };
  await mkdir(args.dir, { recursive: true });
  const db = new Database(join(args.dir, 'trips.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE trips (uuid TEXT PRIMARY KEY, ts INTEGER NOT NULL, rider TEXT, driver TEXT, begin_lat REAL, begin_lon REAL, end_lat REAL, end_lon REAL, fare TEXT, city TEXT)`);
  const insert = db.prepare(`INSERT INTO trips (${FIELDS.join(', ')}) VALUES (${FIELDS.map((f) => `@${f}`).join(', ')})`);
  const upsertStmt = db.prepare(
    `INSERT INTO trips (${FIELDS.join(', ')}) VALUES (${FIELDS.map((f) => `@${f}`).join(', ')}) ` +
      `ON CONFLICT(uuid) DO UPDATE SET ${FIELDS.filter((f) => f !== 'uuid').map((f) => `${f} = excluded.${f}`).join(', ')} WHERE excluded.ts >= trips.ts`,
  );
  const g0 = performance.now();
  db.transaction(() => {
    for (const r of tripRows(0, args.rows)) insert.run(r);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  const updates = Math.round(args.upsert / 2);
  const inserts = args.upsert - updates;
  const batch = upsertBatch(args.rows, updates, inserts);
  const transferSeconds = (performance.now() - g0) / 1000;
  const apply = db.transaction((rows) => {
    for (const r of rows) upsertStmt.run(r);
  });
  const step = await timedStep(async () => apply(batch));
  const after = db.prepare('SELECT count(*) AS n FROM trips').get().n;
  const version = db.prepare('SELECT sqlite_version() AS v').get().v;
  db.close();
  if (after !== args.rows + inserts) throw new Error(`sqlite: ${after} rows after the upsert, expected ${args.rows + inserts}`);
  return { version, transferSeconds, upsert: { seconds: step.seconds, cpuSeconds: step.cpuSeconds, rows: after, updates, inserts } };
}
