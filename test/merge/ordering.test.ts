// merge/ordering.ts: the ordering spec of a table (configured fields the schema holds, with their kinds) and the
// one comparison rule (greater wins, ties and incomparable values to the later record) every merge path uses.
import { describe, expect, it } from 'vitest';
import { compareOrdering, newerWins, orderingSpec, usesEventTime } from '../../src/merge/ordering.js';
import { parseRecordSchema } from '../../src/schema/table-schema.js';
import { MicrosDate } from '../../src/schema/timestamp-micros.js';

const schema = parseRecordSchema({
  type: 'record', name: 'r', fields: [
    { name: 'id', type: 'string' },
    { name: 'ts', type: 'long' },
    { name: 'n', type: ['null', 'double'] },
    { name: 'price', type: { type: 'bytes', logicalType: 'decimal', precision: 10, scale: 2 } },
    { name: 'at', type: { type: 'long', logicalType: 'timestamp-micros' } },
  ],
}, 'test');

describe('orderingSpec', () => {
  it('keeps the configured fields the schema holds, in configured order, with their comparable kinds', () => {
    expect(orderingSpec(['price', 'gone', 'ts'], schema)).toEqual({
      orderingFields: ['price', 'ts'],
      orderingKinds: [{ kind: 'decimal', scale: 2 }, { kind: 'bigint', scale: 0 }],
    });
    expect(orderingSpec(['n', 'at', 'id'], schema).orderingKinds).toEqual([{ kind: 'number', scale: 0 }, { kind: 'date', scale: 0 }, { kind: 'string', scale: 0 }]);
    expect(orderingSpec([], schema)).toEqual({ orderingFields: [], orderingKinds: [] });
  });

  it('event-time ordering applies only in EVENT_TIME_ORDERING mode with at least one field', () => {
    expect(usesEventTime('EVENT_TIME_ORDERING', { orderingFields: ['ts'] })).toBe(true);
    expect(usesEventTime('EVENT_TIME_ORDERING', { orderingFields: [] })).toBe(false);
    expect(usesEventTime('COMMIT_TIME_ORDERING', { orderingFields: ['ts'] })).toBe(false);
  });
});

describe('newerWins / compareOrdering', () => {
  const big = [{ kind: 'bigint' as const, scale: 0 }];
  it('the greater ordering value wins; a tie goes to the incoming (later) record', () => {
    expect(newerWins(big, [5n], [4n])).toBe(true);
    expect(newerWins(big, [3n], [4n])).toBe(false);
    expect(newerWins(big, [4n], [4n])).toBe(true);
    expect(compareOrdering(big, [4n], [4n])).toBe(0);
  });

  it('a missing value on either side is incomparable, and the incoming record wins', () => {
    expect(compareOrdering(big, [undefined], [4n])).toBeUndefined();
    expect(newerWins(big, [undefined], [4n])).toBe(true);
    expect(newerWins(big, [1n], [null])).toBe(true);
    // a delete without ordering values (delete(), a partition move) has no fields to compare: it wins
    expect(newerWins(big, [], [9n])).toBe(true);
  });

  it('fields compare in order; the first that differs decides', () => {
    const two = [{ kind: 'bigint' as const, scale: 0 }, { kind: 'string' as const, scale: 0 }];
    expect(newerWins(two, [1n, 'a'], [1n, 'b'])).toBe(false);
    expect(newerWins(two, [2n, 'a'], [1n, 'b'])).toBe(true);
    expect(compareOrdering(two, [1n, 'b'], [1n, 'a'])).toBe(1);
  });

  it('compares by the kind: numbers numerically, decimals by value, dates to the microsecond', () => {
    expect(newerWins([{ kind: 'number', scale: 0 }], [10], [9])).toBe(true);
    expect(newerWins([{ kind: 'decimal', scale: 2 }], ['75.5'], ['75.10'])).toBe(true);
    expect(compareOrdering([{ kind: 'decimal', scale: 2 }], ['75'], ['75.00'])).toBe(0);
    expect(newerWins([{ kind: 'date', scale: 0 }], [new MicrosDate(1_000_001n)], [new MicrosDate(1_000_002n)])).toBe(false);
    // without a kind for a field, values compare as text
    expect(newerWins([], ['b'], ['a'])).toBe(true);
    expect(newerWins([], ['10'], ['9'])).toBe(false);
  });
});
