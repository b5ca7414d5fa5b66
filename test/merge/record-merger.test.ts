// RecordMerger (hudi-format.md §8): event-time ordering (greater ordering wins, ties → the later write),
// commit-time ordering (the later write wins), delete blocks with natural (0) or explicit ordering,
// re-inserts after deletes (the log merged first, then the base), and `_hoodie_is_deleted` soft deletes.
// Partial records: partial-merge.test.ts.
import { describe, expect, it } from 'vitest';
import { isNaturalOrdering, RecordMerger, type RecordMergerOptions } from '../../src/merge/record-merger.js';

type Row = Record<string, unknown>;
const row = (key: string, ts: unknown, v: string, extra: Row = {}): Row => ({ _hoodie_record_key: key, ts, v, ...extra });
const eventTime = (kind: 'bigint' | 'number' | 'decimal' | 'string' = 'bigint', scale = 0): RecordMergerOptions => ({ mode: 'EVENT_TIME_ORDERING', orderingFields: ['ts'], orderingKinds: [{ kind, scale }] });
const commitTime: RecordMergerOptions = { mode: 'COMMIT_TIME_ORDERING', orderingFields: ['ts'], orderingKinds: [{ kind: 'bigint', scale: 0 }] };

/** Surviving rows as `key=v`, in output order. */
const out = (m: RecordMerger): string[] => [...m.rows()].map((r) => `${String(r._hoodie_record_key)}=${String(r.v)}`);

describe('event-time ordering', () => {
  it('keeps the version with the greater ordering value', () => {
    const m = new RecordMerger(eventTime());
    m.addBase([row('1', 5n, 'base'), row('2', 5n, 'base')]);
    m.addRecords([row('1', 3n, 'older'), row('2', 7n, 'newer')]);
    expect(out(m)).toEqual(['1=base', '2=newer']);
  });

  it('on a tie the later write wins, across blocks and within one block', () => {
    const m = new RecordMerger(eventTime());
    m.addBase([row('1', 5n, 'base')]);
    m.addRecords([row('1', 5n, 'first')]);
    expect(out(m)).toEqual(['1=first']);
    m.addRecords([row('1', 5n, 'second'), row('1', 5n, 'third'), row('1', 4n, 'lower')]);
    expect(out(m)).toEqual(['1=third']);
  });

  it('compares numbers numerically, not as text', () => {
    const m = new RecordMerger(eventTime('number'));
    m.addBase([row('1', 9, 'nine')]);
    m.addRecords([row('1', 10, 'ten')]);
    expect(out(m)).toEqual(['1=ten']);
  });

  it('compares decimals by value ("75" equals "75.00", so the later wins; "75.5" > "75.10")', () => {
    const m = new RecordMerger(eventTime('decimal', 2));
    m.addBase([row('a', '75.00', 'base'), row('b', '75.10', 'base')]);
    m.addRecords([row('a', '75', 'tie'), row('b', '75.5', 'bigger')]);
    expect(out(m)).toEqual(['a=tie', 'b=bigger']);
  });

  it('uses every ordering field in turn', () => {
    const m = new RecordMerger({ mode: 'EVENT_TIME_ORDERING', orderingFields: ['day', 'seq'], orderingKinds: [{ kind: 'string', scale: 0 }, { kind: 'number', scale: 0 }] });
    m.addBase([{ _hoodie_record_key: 'k', day: '2024-01-02', seq: 1, v: 'base' }]);
    m.addRecords([{ _hoodie_record_key: 'k', day: '2024-01-01', seq: 99, v: 'older day' }]);
    expect(out(m)).toEqual(['k=base']);
    m.addRecords([{ _hoodie_record_key: 'k', day: '2024-01-02', seq: 2, v: 'same day, later seq' }]);
    expect(out(m)).toEqual(['k=same day, later seq']);
  });

  it('a null ordering value cannot be compared, so the later write wins', () => {
    const m = new RecordMerger(eventTime());
    m.addBase([row('1', 5n, 'base')]);
    m.addRecords([row('1', null, 'null ts')]);
    expect(out(m)).toEqual(['1=null ts']);
  });

  it('without ordering fields the arrival order decides', () => {
    const m = new RecordMerger({ mode: 'EVENT_TIME_ORDERING', orderingFields: [], orderingKinds: [] });
    m.addBase([row('1', 9n, 'base')]);
    m.addRecords([row('1', 1n, 'later')]);
    expect(out(m)).toEqual(['1=later']);
  });
});

describe('commit-time ordering', () => {
  it('the later write wins whatever its ordering value', () => {
    const m = new RecordMerger(commitTime);
    m.addBase([row('1', 5n, 'base')]);
    m.addRecords([row('1', 1n, 'later, smaller ts')]);
    expect(out(m)).toEqual(['1=later, smaller ts']);
  });

  it('deletes always win', () => {
    const m = new RecordMerger(commitTime);
    m.addBase([row('1', 5n, 'base'), row('2', 5n, 'base')]);
    m.addDeletes([{ recordKey: '1', orderingVal: 1n }, { recordKey: '2', orderingVal: 0 }]);
    expect(out(m)).toEqual([]);
  });
});

describe('deletes (event-time ordering)', () => {
  it('a natural-order delete (0, 0n, null, absent) removes the key whatever its ordering', () => {
    for (const orderingVal of [0, 0n, null, undefined, '0']) {
      const m = new RecordMerger(eventTime());
      m.addBase([row('1', 500n, 'base'), row('2', 1n, 'keep')]);
      m.addDeletes([{ recordKey: '1', orderingVal }]);
      expect(out(m)).toEqual(['2=keep']);
    }
  });

  it('a delete with a smaller non-zero ordering is ignored', () => {
    const m = new RecordMerger(eventTime());
    m.addBase([row('1', 5n, 'base')]);
    m.addDeletes([{ recordKey: '1', orderingVal: 4n }]);
    expect(out(m)).toEqual(['1=base']);
  });

  it('a delete with a greater or equal ordering removes the key', () => {
    const m = new RecordMerger(eventTime());
    m.addBase([row('1', 5n, 'base'), row('2', 5n, 'base')]);
    m.addDeletes([{ recordKey: '1', orderingVal: 6n }, { recordKey: '2', orderingVal: 5n }]);
    expect(out(m)).toEqual([]);
  });

  it('a delete of an unknown key is remembered as a tombstone', () => {
    const m = new RecordMerger(eventTime());
    m.addDeletes([{ recordKey: 'ghost', orderingVal: 0 }]);
    expect(out(m)).toEqual([]);
    expect(m.size).toBe(1);
  });

  it('a re-insert after a natural delete: the log merges first (the delete loses to it), then it meets the base', () => {
    // Hudi 1.x FileGroupRecordBuffer: deltaMerge(delete, record) keeps the record (a commit-time-ordering delete
    // loses to any later record); finalMerge(base, record) then compares ordering values, so a re-insert older
    // than the base leaves the base row (as Spark reads it, and as Hudi 0.x's merged-log scanner did).
    const m = new RecordMerger(eventTime());
    m.addBase([row('1', 500n, 'base'), row('2', 500n, 'base')]);
    m.addDeletes([{ recordKey: '1', orderingVal: 0 }, { recordKey: '2', orderingVal: 0 }, { recordKey: '3', orderingVal: 0 }]);
    m.addRecords([row('1', 1n, 'older re-insert'), row('2', 600n, 'newer re-insert'), row('3', 1n, 'no base')]);
    expect(out(m)).toEqual(['1=base', '2=newer re-insert', '3=no base']);
  });

  it('after an ordered delete a re-insert must not be older than the delete', () => {
    const m = new RecordMerger(eventTime());
    m.addBase([row('1', 5n, 'base')]);
    m.addDeletes([{ recordKey: '1', orderingVal: 10n }]);
    m.addRecords([row('1', 9n, 'too old')]);
    expect(out(m)).toEqual([]);
    m.addRecords([row('1', 10n, 'tie, later')]);
    expect(out(m)).toEqual(['1=tie, later']);
  });

  it('accepts the ordering value as an array (multi-field ordering)', () => {
    const m = new RecordMerger(eventTime());
    m.addBase([row('1', 5n, 'base'), row('2', 5n, 'base')]);
    m.addDeletes([{ recordKey: '1', orderingVal: [3n] }, { recordKey: '2', orderingVal: [0n] }]);
    expect(out(m)).toEqual(['1=base']);
  });
});

describe('_hoodie_is_deleted soft deletes', () => {
  it('a record marked deleted removes the key when it wins the ordering', () => {
    const m = new RecordMerger(eventTime());
    m.addBase([row('1', 5n, 'base'), row('2', 5n, 'base')]);
    m.addRecords([row('1', 6n, 'gone', { _hoodie_is_deleted: true }), row('2', 6n, 'alive', { _hoodie_is_deleted: false })]);
    expect(out(m)).toEqual(['2=alive']);
  });

  it('an older soft delete loses to the current record', () => {
    const m = new RecordMerger(eventTime());
    m.addBase([row('1', 5n, 'base')]);
    m.addRecords([row('1', 4n, 'old delete', { _hoodie_is_deleted: true })]);
    expect(out(m)).toEqual(['1=base']);
  });

  it('only the boolean true marks a delete', () => {
    const m = new RecordMerger(eventTime());
    m.addRecords([row('1', 1n, 'string true', { _hoodie_is_deleted: 'true' }), row('2', 1n, 'null', { _hoodie_is_deleted: null })]);
    expect(out(m)).toEqual(['1=string true', '2=null']);
  });

  it('under commit-time ordering a soft delete always applies', () => {
    const m = new RecordMerger(commitTime);
    m.addBase([row('1', 5n, 'base')]);
    m.addRecords([row('1', 1n, 'x', { _hoodie_is_deleted: true })]);
    expect(out(m)).toEqual([]);
  });
});

describe('RecordMerger bookkeeping', () => {
  it('outputs base rows in base order, then new keys in arrival order; custom key field', () => {
    const m = new RecordMerger({ ...eventTime(), keyField: 'id' });
    m.addBase([{ id: 3, ts: 1n, v: 'c' }, { id: 1, ts: 1n, v: 'a' }]);
    m.addRecords([{ id: 9, ts: 1n, v: 'new9' }, { id: 1, ts: 2n, v: 'a2' }, { id: 5, ts: 1n, v: 'new5' }]);
    expect([...m.rows()].map((r) => `${String(r.id)}=${String(r.v)}`)).toEqual(['3=c', '1=a2', '9=new9', '5=new5']);
    expect(m.size).toBe(4);
  });

  it('a duplicate key inside the base keeps both copies (Hudi inserts do not deduplicate), each merged alone', () => {
    const m = new RecordMerger(eventTime());
    m.addBase([row('1', 9n, 'first'), row('1', 1n, 'second'), row('2', 1n, 'other')]);
    expect(out(m).sort()).toEqual(['1=first', '1=second', '2=other']);
    // A log record with ordering 5 replaces the copy at 1, not the one at 9.
    m.addRecords([row('1', 5n, 'log')]);
    expect(out(m).sort()).toEqual(['1=first', '1=log', '2=other']);
    // A natural-order delete removes every copy.
    m.addDeletes([{ recordKey: '1' }]);
    expect(out(m)).toEqual(['2=other']);
  });

  it('isNaturalOrdering', () => {
    expect([0, 0n, null, undefined, '0'].every(isNaturalOrdering)).toBe(true);
    expect([1, -1, 1n, '', '00', false].some(isNaturalOrdering)).toBe(false);
  });
});
