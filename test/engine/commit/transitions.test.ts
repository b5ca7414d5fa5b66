// engine/commit/transitions.ts: each action's requested → inflight → completed writes exactly the timeline files
// Hudi names (hudi-format.md §3.2), a second create is refused, and a create whose answer was lost is
// recognised as the caller's own.
import { describe, expect, it } from 'vitest';
import { createTableFiles } from '../../../src/engine/create-table.js';
import { instantTransition, requestNewInstant } from '../../../src/engine/commit/transitions.js';
import { loadTableConfig } from '../../../src/engine/table-state.js';
import { memoryStorage } from '../../../src/storage/memory.js';
import type { Storage } from '../../../src/storage/storage.js';
import { parseInstantFileName, type Action } from '../../../src/timeline/instant.js';

const T = '20240101000000000';
const bytes = (s: string) => new TextEncoder().encode(s);

/** Names of the files in the v6 timeline folder (`.hoodie`), sorted. */
async function timeline(storage: Storage): Promise<string[]> {
  return (await storage.list('.hoodie')).filter((f) => f.kind === 'file').map((f) => f.path.slice('.hoodie/'.length)).sort();
}

/** A store whose `writeIfAbsent` fails after (`landed`) or before the file is written. */
function lostAck(inner: Storage, landed: boolean): Storage {
  return new Proxy(inner, {
    get(target, key, receiver) {
      if (key === 'writeIfAbsent') {
        return async (path: string, data: Uint8Array) => {
          if (landed) await target.writeIfAbsent(path, data);
          throw new Error(`injected: connection reset on create of ${path}`);
        };
      }
      const v = Reflect.get(target, key, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

const V6 = { timelinePath: '.hoodie' };

/** Hudi's layout-1 names per action: requested (undefined: none), inflight, completed. */
const EXPECTED: [Action, string | undefined, string, string][] = [
  ['commit', `${T}.commit.requested`, `${T}.inflight`, `${T}.commit`],
  ['deltacommit', `${T}.deltacommit.requested`, `${T}.deltacommit.inflight`, `${T}.deltacommit`],
  ['replacecommit', `${T}.replacecommit.requested`, `${T}.replacecommit.inflight`, `${T}.replacecommit`],
  ['compaction', `${T}.compaction.requested`, `${T}.compaction.inflight`, `${T}.commit`],
  ['clean', `${T}.clean.requested`, `${T}.clean.inflight`, `${T}.clean`],
  ['rollback', `${T}.rollback.requested`, `${T}.rollback.inflight`, `${T}.rollback`],
  ['savepoint', undefined, `${T}.savepoint.inflight`, `${T}.savepoint`],
  ['restore', `${T}.restore.requested`, `${T}.restore.inflight`, `${T}.restore`],
];

describe('instant transitions', () => {
  for (const [action, requested, inflight, completed] of EXPECTED) {
    it(`${action}: writes ${[requested, inflight, completed].filter(Boolean).join(' → ')}, and nothing else`, async () => {
      const storage = memoryStorage();
      const t = instantTransition(storage, V6, T, action);
      if (requested) {
        expect(await t.request(bytes('plan'))).toBe(true);
        expect(await timeline(storage)).toEqual([requested]);
      }
      await t.markInflight(bytes('profile'));
      expect(await timeline(storage)).toEqual([requested, inflight].filter(Boolean).sort());
      expect(await t.complete(bytes('done'))).toBe(true);
      expect(await timeline(storage)).toEqual([requested, inflight, completed].filter((x): x is string => x !== undefined).sort());
      expect(new TextDecoder().decode(await storage.read(`.hoodie/${completed}`))).toBe('done');
      // The names parse back to this instant (a compaction completes as a commit).
      const parsed = parseInstantFileName(completed);
      expect(parsed).toMatchObject({ requestedTime: T, state: 'COMPLETED', action: action === 'compaction' ? 'commit' : action });
      expect(parseInstantFileName(inflight)).toMatchObject({ requestedTime: T, state: 'INFLIGHT', action });
      expect(await t.exists('COMPLETED')).toBe(true);
      // Removal, in the order given.
      await t.remove('INFLIGHT', 'REQUESTED');
      expect(await timeline(storage)).toEqual([completed]);
    });
  }

  it('refuses a second create of the requested or completed file, leaving the first in place', async () => {
    const storage = memoryStorage();
    const t = instantTransition(storage, V6, T, 'deltacommit');
    expect(await t.request(bytes('first plan'))).toBe(true);
    expect(await t.request(bytes('second plan'))).toBe(false);
    expect(await t.complete(bytes('first'))).toBe(true);
    expect(await t.complete(bytes('second'))).toBe(false);
    expect(new TextDecoder().decode(await storage.read(t.path('REQUESTED')))).toBe('first plan');
    expect(new TextDecoder().decode(await storage.read(t.path('COMPLETED')))).toBe('first');
  });

  it('overwrites when asked to (a rollback re-run rewrites its own plan and metadata)', async () => {
    const storage = memoryStorage();
    const t = instantTransition(storage, V6, T, 'rollback');
    await t.request(bytes('plan 1'), { mode: 'overwrite' });
    expect(await t.request(bytes('plan 2'), { mode: 'overwrite' })).toBe(true);
    await t.complete(bytes('md 1'), { mode: 'overwrite' });
    expect(await t.complete(bytes('md 2'), { mode: 'overwrite' })).toBe(true);
    expect(new TextDecoder().decode(await storage.read(t.path('REQUESTED')))).toBe('plan 2');
    expect(new TextDecoder().decode(await storage.read(t.path('COMPLETED')))).toBe('md 2');
  });

  it('recognises its own completed file when the create took effect but its answer was lost', async () => {
    const inner = memoryStorage();
    const storage = lostAck(inner, true);
    // `exists`: only this caller creates the file (its instant is its own).
    expect(await instantTransition(storage, V6, T, 'compaction').complete(bytes('md'), { landed: 'exists' })).toBe(true);
    // `same-bytes`: the file must hold exactly these bytes.
    const sp = instantTransition(storage, V6, T, 'savepoint');
    expect(await sp.complete(bytes('mine'), { landed: 'same-bytes' })).toBe(true);
    expect(await sp.holds('COMPLETED', bytes('mine'))).toBe(true);
    // Without `landed` the error stands, even though the file is there.
    await expect(instantTransition(storage, V6, T, 'clean').complete(bytes('md'))).rejects.toThrow('injected');
    expect(await inner.head(`.hoodie/${T}.clean`)).toBeTruthy();
  });

  it('does not take a file it did not write for its own', async () => {
    // The create failed before anything was written: the error stands.
    const storage = lostAck(memoryStorage(), false);
    await expect(instantTransition(storage, V6, T, 'compaction').complete(bytes('md'), { landed: 'exists' })).rejects.toThrow('injected');
    // Another writer's file with other bytes is not ours under `same-bytes`.
    const inner = memoryStorage();
    await inner.write(`.hoodie/${T}.savepoint`, bytes('theirs'));
    await expect(instantTransition(lostAck(inner, false), V6, T, 'savepoint').complete(bytes('mine'), { landed: 'same-bytes' })).rejects.toThrow('injected');
    expect(new TextDecoder().decode(await inner.read(`.hoodie/${T}.savepoint`))).toBe('theirs');
  });

  it('requests a new instant at a fresh time, later than every instant on the timeline', async () => {
    const storage = memoryStorage();
    await createTableFiles(storage, { name: 't', type: 'MERGE_ON_READ', recordKey: 'id' });
    const config = await loadTableConfig(storage);
    const later = '29991231235959999';
    await storage.write(`.hoodie/${later}.deltacommit`, new Uint8Array(0));
    const t = await requestNewInstant(storage, config, 'clean', bytes('plan'), { heartbeatTimeoutMs: 0 });
    expect(t.instantTime > later).toBe(true);
    expect(t.action).toBe('clean');
    expect(await timeline(storage)).toContain(`${t.instantTime}.clean.requested`);
    expect(new TextDecoder().decode(await storage.read(t.path('REQUESTED')))).toBe('plan');
  });
});
