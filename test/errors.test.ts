// errors.ts: the LakeletError factories give the right code, message, context and cause, and isLakeletError
// tells codes apart.
import { describe, expect, it } from 'vitest';
import { conflict, corruptFile, invalidArgument, isLakeletError, LakeletError, notFound, readOnly, unsupported } from '../src/errors.js';

describe('error factories', () => {
  it('invalidArgument, unsupported and conflict keep the message, context and cause they are given', () => {
    const cause = new Error('inner');
    const cases = [
      [invalidArgument('keygen: bad', { field: 'k', value: 1 }, cause), 'INVALID_ARGUMENT'],
      [unsupported('sigv4: no crypto', { value: 'undefined' }, cause), 'UNSUPPORTED'],
      [conflict('commit: taken', { instant: '1' }, cause), 'CONFLICT'],
    ] as const;
    for (const [err, code] of cases) {
      expect(err).toBeInstanceOf(LakeletError);
      expect(err.code).toBe(code);
      expect(err.cause).toBe(cause);
      expect(isLakeletError(err, code)).toBe(true);
      expect(isLakeletError(err, 'STORAGE')).toBe(false);
    }
    expect(cases.map(([e]) => [e.message, e.context])).toEqual([
      ['keygen: bad', { field: 'k', value: 1 }],
      ['sigv4: no crypto', { value: 'undefined' }],
      ['commit: taken', { instant: '1' }],
    ]);
  });

  it('has no cause and an empty context when none is given', () => {
    const err = invalidArgument('x: y');
    expect(err.context).toEqual({});
    expect('cause' in err).toBe(false);
  });

  it('notFound and readOnly name the store and the path', () => {
    const missing = notFound('memory', 'a/b');
    expect([missing.code, missing.message, missing.context]).toEqual(['NOT_FOUND', 'storage(memory): no file at "a/b"', { path: 'a/b' }]);
    const ro = readOnly('zip', 'c');
    expect([ro.code, ro.message, ro.context]).toEqual(['UNSUPPORTED', 'storage(zip): store is read-only, cannot write "c"', { path: 'c' }]);
  });

  it('corruptFile appends the file and byte offset it knows', () => {
    expect(corruptFile('avro: bad', 'f.log', 12).message).toBe('avro: bad in f.log at byte 12');
    expect(corruptFile('avro: bad', 'f.log').context).toEqual({ path: 'f.log' });
    expect(corruptFile('avro: bad', undefined).message).toBe('avro: bad');
  });
});
