// Pre-commit validators against a Map model (issue 14, "Done when"): random upserts, inserts and deletes, some
// of them breaking a validator (a negative value, a null, a repeated key, too many rows); the model applies only
// the accepted batches, and after every step — and after reopening — the table reads exactly as the model.
import { describe, expect, test } from 'vitest';
import { createTable, memoryStorage, openTable, validateTable, validators, type Table } from '../../src/index.js';

const { expect: expectRecords, notNull, rowCount, unique } = validators;
import { failure } from '../helpers/expect-error.js';
import { Random } from '../helpers/random.js';

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'dqm',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }, { name: 'val', type: ['null', 'long'], default: null }],
};
const MAX_ROWS = 8;
const VALIDATORS = [notNull('val'), expectRecords('val >= 0'), unique(), rowCount({ max: MAX_ROWS })];

async function read(t: Table): Promise<string[]> {
  const out: string[] = [];
  for await (const r of t.rows({ columns: ['id', 'part', 'val'] })) out.push(`${String(r.id)}/${String(r.part)}/${String(r.val)}`);
  return out.sort();
}

for (const [type, version, seed] of [['COPY_ON_WRITE', 6, 1], ['MERGE_ON_READ', 6, 2], ['COPY_ON_WRITE', 9, 3], ['MERGE_ON_READ', 9, 4]] as const) {
  describe(`validators model, ${type} v${version}`, () => {
    test(`seed ${seed}: only accepted batches are in the table`, async () => {
      const rnd = new Random(seed);
      const t = await createTable(memoryStorage(), {
        name: 'dqm', type, recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, tableVersion: version,
        validators: VALIDATORS, bloomFilter: { numEntries: 100 }, compaction: { inline: true, deltaCommits: 3 }, clean: { automatic: false }, archive: { automatic: false },
      });
      const model = new Map<string, { part: string; val: number }>(); // key → row (keys are unique: the index is BLOOM, one partition per key)
      const partOf = (id: string) => `p${id.charCodeAt(1) % 2}`;
      let ts = 0;
      let rejected = 0;
      for (let step = 0; step < 14; step++) {
        const op = rnd.int(3);
        const ids = [...new Set(Array.from({ length: 1 + rnd.int(4) }, () => `k${String.fromCharCode(97 + rnd.int(20))}`))];
        const bad = rnd.chance(0.3) ? rnd.int(3) : -1; // 0: a negative value, 1: a null, 2: a repeated key
        const rows = ids.map((id) => ({ id, part: partOf(id), ts: ++ts, val: rnd.int(100) as number | null }));
        if (bad === 0) (rows[0] as { val: number | null }).val = -1;
        if (bad === 1) (rows[0] as { val: number | null }).val = null;
        if (bad === 2) rows.push({ ...(rows[0] as (typeof rows)[number]), ts: ++ts });
        const fresh = ids.filter((id) => !model.has(id));
        const inserting = op === 1 ? ids : fresh;
        // Which validator must refuse the batch (as the model sees it), if any.
        const expected = op === 2 ? undefined // deletes carry no values and only lower the count
          : bad === 0 ? 'expect' : bad === 1 ? 'notNull' : op === 1 && (bad === 2 || ids.some((id) => model.has(id))) ? 'unique' : model.size + new Set(inserting).size > MAX_ROWS ? 'rowCount' : undefined;
        const write = op === 0 ? () => t.upsert(rows, { combineBeforeUpsert: bad !== 2 }) : op === 1 ? () => t.insert(rows) : () => t.delete(ids.filter((id) => model.has(id)).length > 0 ? ids.filter((id) => model.has(id)) : ids);
        if (op === 0 && bad === 2) continue; // an upsert dedupes the repeated key: nothing to check
        if (expected) {
          const err = await failure(write());
          expect(err.code, `step ${step}`).toBe('ABORTED');
          expect(err.message).toContain(`validator ${expected}`);
          rejected++;
        } else {
          await write();
          if (op === 2) for (const id of ids) model.delete(id);
          else for (const r of rows) model.set(r.id, { part: r.part, val: r.val as number });
        }
        const want = [...model].map(([id, r]) => `${id}/${r.part}/${r.val}`).sort();
        expect(await read(t), `step ${step}`).toEqual(want);
      }
      expect(rejected).toBeGreaterThan(0);
      const reopened = await openTable(t.storage);
      expect(await read(reopened)).toEqual([...model].map(([id, r]) => `${id}/${r.part}/${r.val}`).sort());
      expect((await validateTable(t.storage)).problems).toEqual([]);
    });
  });
}
