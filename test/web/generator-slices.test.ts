// The demo generator built in slices (web/generator.ts generateInSlices): the same batch as generate() for the
// same arguments, the page's thread handed back between slices, and the PRNG's draws pinned (a faster uuid
// builder must not change which rows a seed gives).
import { describe, expect, it } from 'vitest';
import { generate, generateInSlices, type GeneratorSpec } from '../../web/generator.js';

const FIELDS = ['uuid', 'ts', 'city', 'day', 'rider', 'driver', 'fare'];
const existing = Array.from({ length: 1000 }, (_, i) => ({ uuid: `k${i}`, city: 'oslo' }));
const spec = (over: Partial<GeneratorSpec> = {}): GeneratorSpec => ({ count: 2500, updateShare: 0.3, deleteShare: 0.1, distribution: 'uniform', seed: 42, ...over });

describe('demo generator in slices', () => {
  it('gives the batch generate() gives, pausing once between every two slices', async () => {
    for (const distribution of ['uniform', 'skewed'] as const) {
      let pauses = 0;
      const sliced = await generateInSlices(spec({ distribution }), FIELDS, existing, 1_000, async () => { pauses++; }, 300);
      expect(sliced).toEqual(generate(spec({ distribution }), FIELDS, existing, 1_000));
      // 750 updates + 1,500 inserts (+ 250 deletes): 2,250 upserts in 8 slices of 300, 7 pauses between them.
      expect(sliced.upserts).toHaveLength(2250);
      expect(pauses).toBe(7);
    }
  });

  it('a slice of at least the batch never pauses; a slice of one row pauses between every two rows', async () => {
    let pauses = 0;
    await generateInSlices(spec({ count: 50, updateShare: 0, deleteShare: 0 }), FIELDS, [], 0, async () => { pauses++; }, 50);
    expect(pauses).toBe(0);
    await generateInSlices(spec({ count: 50, updateShare: 0, deleteShare: 0 }), FIELDS, [], 0, async () => { pauses++; }, 1);
    expect(pauses).toBe(49);
  });

  it('draws the same rows for a seed as before (pinned)', () => {
    const rows = generate(spec({ count: 2, updateShare: 0, deleteShare: 0, distribution: 'skewed' }), FIELDS, [], 1_000).upserts;
    expect(rows).toEqual([
      { uuid: '97da2849-d73e-4b43-aa90-7d090402c802', ts: 1000, city: 'tokyo', day: '1970-01-01', rider: 'rider-MV', driver: 'driver-IL', fare: 8.56 },
      { uuid: '0893a34b-d834-441a-abe1-f6f210579e1b', ts: 1001, city: 'oslo', day: '1970-01-01', rider: 'rider-HS', driver: 'driver-EN', fare: 83.08 },
    ]);
  });
});
