// The expected writer schema of each lakelet timeline file: Hudi's vendored .avsc (test/fixtures/hudi-avsc/)
// resolved by the oracle, with the few known, named differences between the stored Hudi version and the v6
// files Hudi 0.14/0.15 write applied to the Hudi side. Used by hudi-avsc.test.ts.
import { type Canon, type CanonField, canonical, namedTypes, vendoredSchemas } from './hudi-avsc-oracle.js';

/** Namespace of every Hudi timeline record. */
export const NS = 'org.apache.hudi.avro.model';
const vendored = vendoredSchemas();
/** Every named type the vendored schemas define. */
export const hudiTypes = namedTypes([...vendored.values()]);

/**
 * Where the vendored file (one stored version of Hudi's master history) and the v6 files Hudi 0.14/0.15 write
 * are known to differ, each backed by a Hudi-written fixture or named as a later Hudi addition. Applied to the
 * vendored side only; anything else that differs fails the test.
 */
interface Delta {
  record: string;
  /** Fields of the vendored version that lakelet does not write. */
  drop?: string[];
  /** Vendored name → the name lakelet (and the Spark fixtures) write. */
  rename?: Record<string, string>;
  /** Trailing fields lakelet writes that the vendored version lacks (their types taken from lakelet's schema). */
  lakeletTrailing?: string[];
}
const DELTAS: Delta[] = [
  // In the stored Hudi version, not written by lakelet. Not confirmed against a Hudi 0.14/0.15-written file (the
  // fixtures have no clean or archive file); trailing optional fields, so Hudi still reads lakelet's files.
  { record: `${NS}.HoodieCleanerPlan`, drop: ['extraMetadata'] },
  { record: `${NS}.HoodieCleanMetadata`, drop: ['extraMetadata'] },
  { record: `${NS}.HoodieArchivedMetaEntry`, drop: ['hoodieIndexCommitMetadata', 'stateTransitionTime'] },
  // The vendored version predates the rename; the Spark v6 rollback fixture's header says logFilesFromFailedCommit.
  { record: `${NS}.HoodieRollbackPartitionMetadata`, rename: { writtenLogFiles: 'logFilesFromFailedCommit' } },
  // The vendored version predates these; the Hudi-written compaction plan fixture's header has them.
  { record: `${NS}.HoodieCompactionPlan`, lakeletTrailing: ['strategy', 'preserveHoodieMetadata', 'missingSchedulePartitions'] },
];

/** A resolved record. */
export type Rec = { record: string; fields: CanonField[] };
const isRec = (c: Canon): c is Rec => typeof c === 'object' && 'record' in c;
/** The first record named `name` inside `c`. */
export function findRecord(c: Canon, name: string): Rec | undefined {
  if (typeof c === 'string') return undefined;
  if (isRec(c)) return c.record === name ? c : c.fields.map((f) => findRecord(f.type, name)).find((r) => r !== undefined);
  if ('union' in c) return c.union.map((b) => findRecord(b, name)).find((r) => r !== undefined);
  if ('array' in c) return findRecord(c.array, name);
  if ('map' in c) return findRecord(c.map, name);
  return undefined;
}

/**
 * The writer schema lakelet must embed: the vendored `root` with {@link DELTAS} applied. Named types no vendored
 * file defines (commit metadata inside archive entries) are taken from `actual` by name; `filled` lists them.
 */
export function expectedSchema(root: string, actual: Canon): { schema: Canon; filled: string[] } {
  const filled: string[] = [];
  const fix = (c: Canon): Canon => {
    if (typeof c === 'string') return c;
    if ('unresolved' in c) {
      const def = findRecord(actual, c.unresolved);
      filled.push(`${c.unresolved} (not vendored${def === undefined ? ', absent from lakelet' : ''})`);
      return def ?? c;
    }
    if ('union' in c) return { union: c.union.map(fix) };
    if ('array' in c) return { array: fix(c.array) };
    if ('map' in c) return { map: fix(c.map) };
    if (!isRec(c)) return c;
    let fields = c.fields;
    for (const d of DELTAS.filter((x) => x.record === c.record)) {
      fields = fields.filter((f) => !(d.drop ?? []).includes(f.name)).map((f) => ({ ...f, name: d.rename?.[f.name] ?? f.name, type: fix(f.type) }));
      for (const name of d.lakeletTrailing ?? []) {
        const mine = findRecord(actual, c.record)?.fields.find((f) => f.name === name);
        if (mine !== undefined) fields.push(mine);
        filled.push(`${c.record}.${name} (lakelet's type)`);
      }
    }
    if (!DELTAS.some((x) => x.record === c.record)) fields = fields.map((f) => ({ ...f, type: fix(f.type) }));
    return { record: c.record, fields };
  };
  const def = hudiTypes.get(`${NS}.${root}`);
  if (def === undefined) throw new Error(`no vendored schema defines ${root}`);
  return { schema: fix(canonical(def.json, hudiTypes)), filled };
}

