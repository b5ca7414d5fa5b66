// Table.retention(): the savepoints (who, when, why) and the oldest instant time travel can read after a clean,
// as the CLI's inspect and clean report them; an unreadable savepoint file keeps only its instant.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage } from '../../src/index.js';

const upsert = (id: string, ts: number) => [{ id, ts, v: `${id}@${ts}` }];

describe('Table.retention', () => {
  test('a new table keeps everything: no savepoints, nothing cleaned', async () => {
    const table = await createTable(memoryStorage(), { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', clean: { retainCommits: 100 } });
    await table.upsert(upsert('a', 1));
    expect(await table.retention()).toEqual({ savepoints: [] });
  });

  test('savepoints with their metadata, and the oldest readable instant a clean set', async () => {
    const storage = memoryStorage();
    const table = await createTable(storage, { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', clean: { retainCommits: 100 } });
    const first = await table.upsert(upsert('a', 1));
    const when = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
    await table.savepoint({ instant: first.instant, user: 'ops', comments: 'before the backfill', now: when });
    for (let ts = 2; ts <= 5; ts++) await table.upsert(upsert('a', ts));
    const cleaned = await table.clean({ retainCommits: 1 });
    expect(cleaned).toBeDefined();
    const retention = await table.retention();
    expect(retention.savepoints).toEqual([{ instant: first.instant, savepointedBy: 'ops', savepointedAt: when, comments: 'before the backfill' }]);
    expect(retention.oldestReadable?.clean).toBe(cleaned?.instant);
    expect(retention.oldestReadable?.instant).toBe(table.commits[table.commits.length - 1]?.requestedTime);

    // A savepoint file that cannot be parsed keeps its instant, without who/when/why.
    const file = `.hoodie/${table.timeline.find((i) => i.action === 'savepoint')?.fileName}`;
    await storage.write(file, new Uint8Array([1, 2, 3]));
    expect((await table.retention()).savepoints).toEqual([{ instant: first.instant }]);
  });
});
