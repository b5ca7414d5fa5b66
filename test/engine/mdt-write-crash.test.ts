// Crash tests on a v9 table with a metadata table (issue 10): every storage-call index of a MOR and a COW upsert
// — which writes the MDT deltacommit (requested, inflight, logs, completed) under the commit lock before the
// data instant completes — under the `before`, `after` and `lost-ack` fault models, with the harness and Map
// model of crash.test.ts. A crash between the MDT completion and the data completion leaves the data instant
// pending: the next write rolls it back on both timelines (an MDT rollback deleting its logs). After every
// recovery write, validateTable reports nothing (the MDT equals storage and the data).
import { describe, expect, test } from 'vitest';
import { WRITE_CASES } from '../helpers/crash-cases.js';
import { runCrashMatrix, standardSetup, type CrashCase } from '../helpers/crash-harness.js';
import { memoryKind } from '../helpers/crash-stores.js';
import { validateTable, type Storage } from '../../src/index.js';

const MODELS = ['before', 'after', 'lost-ack'] as const;
const pick = (name: string): CrashCase => {
  const c = WRITE_CASES.find((x) => x.name === name);
  if (!c) throw new Error(`no crash case ${name}`);
  return {
    ...c,
    name: `${c.name} on v9 with a metadata table`,
    setup: async (env) => {
      await standardSetup(env, c.type, { tableVersion: 9, metadataTable: true });
    },
    // The operation, then (once it settled, crashed or not) nothing more: the harness's recovery write follows;
    // the MDT check runs on the store the recovery left (see below).
  };
};

const MDT = '.hoodie/metadata/';
const MDT_TIMELINE = `${MDT}.hoodie/timeline/`;

/**
 * MDT files no completed MDT instant accounts for: timeline files of instants that never completed (other than
 * a pending compaction plan), and partition files named after an instant that is neither completed on the MDT
 * timeline nor an initialisation instant.
 */
async function mdtOrphans(storage: Storage): Promise<string[]> {
  const files = (await storage.list('.hoodie/metadata', { recursive: true })).map((f) => f.path);
  const completed = new Set<string>();
  for (const f of files) {
    const m = f.startsWith(MDT_TIMELINE) ? /^(\d{17})_\d{17}\.[a-z]+$/.exec(f.slice(MDT_TIMELINE.length)) : null;
    if (m) completed.add(m[1]!);
  }
  const out: string[] = [];
  for (const f of files) {
    const name = f.slice(f.lastIndexOf('/') + 1);
    if (f.startsWith(MDT_TIMELINE)) {
      const t = name.slice(0, 17);
      if (!completed.has(t) && !name.endsWith('.compaction.requested')) out.push(`${f} (pending MDT instant)`);
    } else if (f.startsWith(`${MDT}.hoodie/`) || name === '.hoodie_partition_metadata') continue;
    else {
      const t = /^\.[^_]+_(\d{17})\.log\./.exec(name)?.[1] ?? /_(\d{17})\.hfile$/.exec(name)?.[1];
      if (t === undefined || !completed.has(t)) out.push(`${f} (MDT file of no completed MDT instant)`);
    }
  }
  return out;
}

/** A store kind whose every fresh copy is remembered, so the test can validate each after its recovery. */
function validatingKind() {
  const kind = memoryKind();
  const stores: Storage[] = [];
  return {
    kind: { ...kind, fresh: async () => { const s = await kind.fresh(); stores.push(s); return s; }, copy: async (from: Storage) => { const s = await kind.copy(from); stores.push(s); return s; } },
    stores,
  };
}

for (const c of [pick('upsert (MERGE_ON_READ, BLOOM)'), pick('upsert (COPY_ON_WRITE, BLOOM)')]) {
  describe(`crash at every storage call of ${c.name}`, () => {
    test('every crash point leaves the model before or after; the next write recovers; the MDT stays consistent', { timeout: 600_000 }, async () => {
      const { kind, stores } = validatingKind();
      const outcomes = await runCrashMatrix(c, kind, MODELS);
      expect(outcomes.length).toBeGreaterThan(30);
      expect(outcomes.some((o) => o.landed) && outcomes.some((o) => !o.landed)).toBe(true);
      expect(stores.length).toBeGreaterThan(outcomes.length);
      for (const [i, s] of stores.entries()) {
        expect(await validateTable(s), `store ${i}`).toMatchObject({ ok: true, problems: [] });
        expect(await mdtOrphans(s), `store ${i}`).toEqual([]);
      }
    });
  });
}
