// Query filters: parsing CLI text (every operator, quotes, IN lists), compiling against column kinds,
// SQL-style matching (nulls never match; bigint/number; decimals by value; dates) and min/max pruning.
import { describe, expect, it } from 'vitest';
import { LakeletError } from '../../src/errors.js';
import { checkFilter, compileFilters, matchRow, matchValue, parseFilter, rangeMayMatch, type CompiledFilter, type Filter } from '../../src/expr/filter.js';
import { compareValues, type ComparableKind } from '../../src/schema/compare.js';

const one = (f: Filter, kind: ComparableKind = 'string', scale = 0): CompiledFilter => {
  const [c] = compileFilters([f], () => ({ kind, scale }));
  if (!c) throw new Error('no filter');
  return c;
};

function invalid(fn: () => unknown): LakeletError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(LakeletError);
    expect((err as LakeletError).code).toBe('INVALID_ARGUMENT');
    return err as LakeletError;
  }
  throw new Error('expected INVALID_ARGUMENT');
}

describe('parseFilter', () => {
  it.each([
    ['city = san_francisco', ['city', '=', 'san_francisco']],
    ['fare >= 20', ['fare', '>=', '20']],
    ['fare<=20.5', ['fare', '<=', '20.5']],
    ['fare > -3', ['fare', '>', '-3']],
    ['fare < 1e3', ['fare', '<', '1e3']],
    ['name != Bob', ['name', '!=', 'Bob']],
    ['name <> Bob', ['name', '!=', 'Bob']],
    ["name != 'Bob'", ['name', '!=', 'Bob']],
    ['name = "Mary Ann"', ['name', '=', 'Mary Ann']],
    ["name = 'it''s'", ['name', '=', "it''s"]],
    ["name = ''", ['name', '=', '']],
    ['expr = a=b', ['expr', '=', 'a=b']],
    ['structField.field2 > 30', ['structField.field2', '>', '30']],
    ['  _hoodie_commit_time   >=   20240418173551906  ', ['_hoodie_commit_time', '>=', '20240418173551906']],
  ])('%j', (text, expected) => {
    expect(parseFilter(text)).toEqual(expected);
  });

  it.each([
    ['id IN 1,2,3', ['id', 'IN', ['1', '2', '3']]],
    ['id in (1, 2, 3)', ['id', 'IN', ['1', '2', '3']]],
    ["city IN ('sf', \"nyc\")", ['city', 'IN', ['sf', 'nyc']]],
    ['id NOT IN 4,5', ['id', 'NOT IN', ['4', '5']]],
    ['id not   in (4)', ['id', 'NOT IN', ['4']]],
    ["name IN ('Smith, John', 'Doe')", ['name', 'IN', ['Smith, John', 'Doe']]],
    ['name NOT IN ("a,b,c")', ['name', 'NOT IN', ['a,b,c']]],
  ])('%j', (text, expected) => {
    expect(parseFilter(text)).toEqual(expected);
  });

  it.each(['', 'city', 'city =', '= 5', '1x = 5', 'city ~ sf', 'IN 1,2'])('%j → INVALID_ARGUMENT naming the text', (text) => {
    const err = invalid(() => parseFilter(text));
    expect(err.context.value).toBe(text);
  });
});

describe('checkFilter and compileFilters', () => {
  it('rejects malformed filters', () => {
    invalid(() => checkFilter(['a', 'LIKE', 'x']));
    invalid(() => checkFilter(['a', '=']));
    invalid(() => checkFilter([1, '=', 'x']));
    invalid(() => checkFilter('a = 1'));
    invalid(() => checkFilter(['a', 'IN', '1,2']));
    expect(checkFilter(['a', 'IN', [1, 2]])).toEqual(['a', 'IN', [1, 2]]);
  });

  it('coerces values to the column kind', () => {
    expect(one(['n', '=', '42'], 'number').values).toEqual([42]);
    expect(one(['n', '=', 7n], 'number').values).toEqual([7]);
    expect(one(['b', '=', '9007199254740993'], 'bigint').values).toEqual([9007199254740993n]);
    expect(one(['b', '<', '2.5'], 'bigint').values).toEqual([2.5]);
    expect(one(['x', '=', 'TRUE'], 'boolean').values).toEqual([true]);
    expect(one(['d', '=', '2024-01-15'], 'date').values).toEqual([Date.UTC(2024, 0, 15)]);
    expect(one(['s', 'IN', [1, 'two']], 'string').values).toEqual(['1', 'two']);
    expect(one(['s', '=', null], 'number').values).toEqual([null]);
    expect(one(['a.b', '=', 'x']).path).toEqual(['a', 'b']);
  });

  it('fields with no known kind compare as text', () => {
    const [f] = compileFilters([['unknown', '=', 5]], () => undefined);
    expect(f?.kind).toBe('string');
    expect(f?.values).toEqual(['5']);
  });

  it.each([
    ['number', 'abc'],
    ['bigint', 'ten'],
    ['decimal', '7.5.1'],
    ['decimal', '.'],
    ['boolean', 'yes'],
    ['date', 'not a date'],
  ] as const)('a value that does not fit a %s column → INVALID_ARGUMENT naming the field', (kind, value) => {
    const err = invalid(() => compileFilters([['col', '=', value]], () => ({ kind, scale: 2 })));
    expect(err.context.field).toBe('col');
    expect(err.message).toContain(value);
  });
});

describe('matching', () => {
  it('every operator on numbers', () => {
    const cases: [Filter, number[]][] = [
      [['n', '=', '2'], [2]],
      [['n', '!=', '2'], [1, 3]],
      [['n', '<', '2'], [1]],
      [['n', '<=', '2'], [1, 2]],
      [['n', '>', '2'], [3]],
      [['n', '>=', '2'], [2, 3]],
      [['n', 'IN', ['1', '3']], [1, 3]],
      [['n', 'NOT IN', ['1', '3']], [2]],
    ];
    for (const [f, expected] of cases) {
      const c = one(f, 'number');
      expect([1, 2, 3].filter((v) => matchValue(c, v)), `${f[0]} ${f[1]} ${String(f[2])}`).toEqual(expected);
    }
  });

  it('a null or missing value never matches, not even != or NOT IN', () => {
    for (const f of [['n', '=', '1'], ['n', '!=', '1'], ['n', '<', '1'], ['n', '>=', '1'], ['n', 'IN', ['1']], ['n', 'NOT IN', ['1']]] as Filter[]) {
      const c = one(f, 'number');
      expect(matchValue(c, null)).toBe(false);
      expect(matchValue(c, undefined)).toBe(false);
      expect(matchRow({}, [c])).toBe(false);
    }
  });

  it('a null filter value matches nothing', () => {
    expect(matchValue(one(['n', '=', null], 'number'), 1)).toBe(false);
    expect(matchValue(one(['n', '!=', null], 'number'), 1)).toBe(false);
  });

  it('bigint columns compare with bigint and number bounds, beyond 2^53', () => {
    const big = 9007199254740993n;
    expect(matchValue(one(['b', '=', '9007199254740993'], 'bigint'), big)).toBe(true);
    expect(matchValue(one(['b', '=', '9007199254740992'], 'bigint'), big)).toBe(false);
    expect(matchValue(one(['b', '>', '9007199254740992'], 'bigint'), big)).toBe(true);
    expect(matchValue(one(['b', '<', '2.5'], 'bigint'), 2n)).toBe(true);
    expect(matchValue(one(['b', '<', '2.5'], 'bigint'), 3n)).toBe(false);
    expect(matchValue(one(['b', '=', '5'], 'bigint'), 5)).toBe(true);
    expect(matchValue(one(['n', '=', '5'], 'number'), 5n)).toBe(true);
  });

  it('decimals compare by value, whatever the number of fraction digits', () => {
    expect(matchValue(one(['fee', '=', '75'], 'decimal', 2), '75.00')).toBe(true);
    expect(matchValue(one(['fee', '=', '75.00'], 'decimal', 2), '75.00')).toBe(true);
    expect(matchValue(one(['fee', '=', '75.0000'], 'decimal', 2), '75.00')).toBe(true);
    expect(matchValue(one(['fee', '=', '75.001'], 'decimal', 2), '75.00')).toBe(false);
    expect(matchValue(one(['fee', '>', '75.1'], 'decimal', 2), '75.09')).toBe(false);
    expect(matchValue(one(['fee', '>', '75.1'], 'decimal', 2), '75.11')).toBe(true);
    expect(matchValue(one(['fee', '<', '-1.5'], 'decimal', 2), '-1.60')).toBe(true);
    expect(matchValue(one(['fee', '<', '-1.5'], 'decimal', 2), '-1.40')).toBe(false);
    expect(matchValue(one(['fee', '<', '.5'], 'decimal', 2), '0.40')).toBe(true);
    expect(matchValue(one(['fee', 'IN', ['1', '75']], 'decimal', 2), '75.00')).toBe(true);
    expect(matchValue(one(['fee', '=', '75'], 'decimal', 2), 75)).toBe(true);
  });

  it('dates compare by instant (Date values against ISO text)', () => {
    const d = new Date(Date.UTC(2024, 0, 15));
    expect(matchValue(one(['day', '=', '2024-01-15'], 'date'), d)).toBe(true);
    expect(matchValue(one(['day', '>', '2024-01-14'], 'date'), d)).toBe(true);
    expect(matchValue(one(['day', '<', '2024-01-15'], 'date'), d)).toBe(false);
    expect(matchValue(one(['ts', '>=', '2024-01-15T10:00:00Z'], 'date'), new Date('2024-01-15T10:00:00.001Z'))).toBe(true);
  });

  it('strings compare by code unit; booleans by value', () => {
    expect(matchValue(one(['city', '>', 'san_francisco']), 'sao_paulo')).toBe(true);
    expect(matchValue(one(['city', '<', 'san_francisco']), 'chennai')).toBe(true);
    expect(matchValue(one(['city', '=', 'SF']), 'sf')).toBe(false);
    expect(matchValue(one(['id', '=', '10']), 10)).toBe(true);
    expect(matchValue(one(['isActive', '=', 'true'], 'boolean'), true)).toBe(true);
    expect(matchValue(one(['isActive', '=', 'true'], 'boolean'), false)).toBe(false);
    expect(matchValue(one(['isActive', '!=', 'false'], 'boolean'), true)).toBe(true);
  });

  it('matchRow ANDs filters and reads nested struct fields', () => {
    const filters = compileFilters([['id', '>', '1'], ['structField.field2', '>', '30'], ['name', '!=', 'Alice']], (f) => (f === 'name' ? { kind: 'string', scale: 0 } : { kind: 'number', scale: 0 }));
    expect(matchRow({ id: 2, name: 'Bob', structField: { field2: 40 } }, filters)).toBe(true);
    expect(matchRow({ id: 2, name: 'Bob', structField: { field2: 20 } }, filters)).toBe(false);
    expect(matchRow({ id: 2, name: 'Bob', structField: null }, filters)).toBe(false);
    expect(matchRow({ id: 2, name: 'Alice', structField: { field2: 40 } }, filters)).toBe(false);
    expect(matchRow({ id: 2, name: 'Bob', 'structField.field2': 50 }, filters)).toBe(true);
    expect(matchRow({ anything: 1 }, [])).toBe(true);
  });

  it('compareValues reports null as incomparable', () => {
    expect(compareValues('number', 0, null, 1)).toBeUndefined();
    expect(compareValues('number', 0, 1, undefined)).toBeUndefined();
    expect(compareValues('number', 0, 1, 2)).toBe(-1);
  });
});

describe('rangeMayMatch', () => {
  const r = (f: Filter, min: unknown, max: unknown, kind: ComparableKind = 'number') => rangeMayMatch(one(f, kind), min, max);

  it('prunes ranges that cannot hold a match', () => {
    expect(r(['n', '=', '5'], 1, 4)).toBe(false);
    expect(r(['n', '=', '5'], 6, 9)).toBe(false);
    expect(r(['n', '=', '5'], 1, 9)).toBe(true);
    expect(r(['n', '=', '5'], 5, 5)).toBe(true);
    expect(r(['n', '<', '5'], 5, 9)).toBe(false);
    expect(r(['n', '<', '5'], 4, 9)).toBe(true);
    expect(r(['n', '<=', '5'], 5, 9)).toBe(true);
    expect(r(['n', '<=', '5'], 6, 9)).toBe(false);
    expect(r(['n', '>', '5'], 1, 5)).toBe(false);
    expect(r(['n', '>', '5'], 1, 6)).toBe(true);
    expect(r(['n', '>=', '5'], 1, 5)).toBe(true);
    expect(r(['n', '>=', '5'], 1, 4)).toBe(false);
    expect(r(['n', 'IN', ['0', '10']], 1, 9)).toBe(false);
    expect(r(['n', 'IN', ['0', '7']], 1, 9)).toBe(true);
    expect(r(['n', '!=', '5'], 5, 5)).toBe(false);
    expect(r(['n', '!=', '5'], 5, 6)).toBe(true);
    expect(r(['n', 'NOT IN', ['5']], 5, 5)).toBe(true);
  });

  it('is unsure (true) when statistics are missing', () => {
    expect(r(['n', '=', '5'], undefined, undefined)).toBe(true);
    expect(r(['n', '<', '5'], null, 9)).toBe(true);
    expect(r(['n', '>', '5'], 1, null)).toBe(true);
  });

  it('works for decimals, bigints and strings', () => {
    expect(r(['fee', '=', '75'], '10.00', '74.99', 'decimal')).toBe(false);
    expect(r(['fee', '=', '75'], '10.00', '75.00', 'decimal')).toBe(true);
    expect(r(['id', '>', '100'], 1n, 100n, 'bigint')).toBe(false);
    expect(r(['id', '>', '100'], 1n, 101n, 'bigint')).toBe(true);
    expect(r(['key', '=', 'id:5'], 'id:1', 'id:4', 'string')).toBe(false);
  });
});
