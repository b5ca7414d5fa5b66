// Write input: an Arrow Table is recognised by its shape (so plain rows never load Arrow) and converted to
// lakelet's value model; anything that is not an iterable of objects is refused naming what it got.
import { describe, expect, test } from 'vitest';
import { Int64, Table as ArrowTable, Utf8, vectorFromArray } from 'apache-arrow';
import { collectRows, isArrowTable } from '../../../src/engine/write/records.js';
import { failure } from '../../helpers/expect-error.js';

const arrowInput = () => new ArrowTable({ id: vectorFromArray(['a', 'b'], new Utf8()), n: vectorFromArray([1n, 2n], new Int64()) });

describe('isArrowTable', () => {
  test('an Arrow Table matches; rows, generators, strings and look-alikes do not', () => {
    expect(isArrowTable(arrowInput())).toBe(true);
    expect(isArrowTable([{ id: 'a' }])).toBe(false);
    expect(isArrowTable((function* () { yield { id: 'a' }; })())).toBe(false);
    expect(isArrowTable('rows')).toBe(false);
    expect(isArrowTable(null)).toBe(false);
    expect(isArrowTable({ schema: { fields: [] }, numRows: 0 })).toBe(false); // no getChild
  });
});

describe('collectRows', () => {
  test('an Arrow Table becomes plain rows (long → bigint)', async () => {
    expect(await collectRows(arrowInput())).toEqual([{ id: 'a', n: 1n }, { id: 'b', n: 2n }]);
  });

  test('plain rows pass through; a non-iterable is INVALID_ARGUMENT', async () => {
    expect(await collectRows([{ id: 'a' }])).toEqual([{ id: 'a' }]);
    expect((await failure(collectRows(42 as never))).code).toBe('INVALID_ARGUMENT');
  });
});
