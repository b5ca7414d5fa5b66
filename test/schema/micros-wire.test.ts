// The worker wire of microsecond timestamps (schema/timestamp-micros.ts microsToWire / microsFromWire): markers
// survive structured cloning, and with a schema that has no microsecond type the deep walk is skipped.
import { describe, expect, it } from 'vitest';
import { MicrosDate, microsFromWire, microsToWire } from '../../src/schema/timestamp-micros.js';

const MICROS_SCHEMA = { type: 'record', name: 'r', fields: [{ name: 't', type: { type: 'long', logicalType: 'timestamp-micros' } }] };
const LONG_SCHEMA = { type: 'record', name: 'r', fields: [{ name: 't', type: 'long' }] };

describe('microsToWire', () => {
  it('turns MicrosDates into markers that come back exact after structured cloning', () => {
    const value = { rows: [{ t: new MicrosDate(1_700_000_000_123_456n) }], plain: 1 };
    const wire = microsToWire(value, MICROS_SCHEMA);
    expect(wire).not.toBe(value);
    const back = microsFromWire(structuredClone(wire));
    expect(back.rows[0]?.t).toBeInstanceOf(MicrosDate);
    expect((back.rows[0]?.t as MicrosDate).micros).toBe(1_700_000_000_123_456n);
  });

  it('walks without a schema, and skips the walk (same object back) for a schema with no microsecond type', () => {
    const value = { rows: [{ t: new MicrosDate(5n) }] };
    expect(microsToWire(value)).not.toBe(value);
    expect(microsToWire(value, LONG_SCHEMA)).toBe(value);
  });
});
