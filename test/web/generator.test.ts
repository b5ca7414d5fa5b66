// The demo's record generator (web/generator.ts), pure: seeded batches repeat, shares become exact counts
// clamped to the existing records, updates and deletes pick distinct existing keys, and skew concentrates them.
import { describe, expect, it } from 'vitest';
import { generate, mixSeed, plan, prng, weightedSample, type GeneratorSpec } from '../../web/generator.js';
import { CITIES } from '../../web/trips.js';

const FIELDS = ['uuid', 'ts', 'city', 'day', 'rider', 'driver', 'fare'];
const existing = Array.from({ length: 1000 }, (_, i) => ({ uuid: `k${i}`, city: CITIES[i % CITIES.length] }));
const spec = (over: Partial<GeneratorSpec> = {}): GeneratorSpec => ({ count: 500, updateShare: 0.3, deleteShare: 0.1, distribution: 'uniform', seed: 42, ...over });

describe('demo generator', () => {
  it('repeats a batch for the same seed and table state, and differs for another seed', () => {
    const a = generate(spec(), FIELDS, existing, 1_000);
    const b = generate(spec(), FIELDS, existing, 1_000);
    expect(b).toEqual(a);
    const c = generate(spec({ seed: 43 }), FIELDS, existing, 1_000);
    expect(c.upserts.map((r) => r.uuid)).not.toEqual(a.upserts.map((r) => r.uuid));
    expect(mixSeed(42, 1)).not.toBe(mixSeed(42, 2));
  });

  it('turns shares into counts: updates and deletes of distinct existing keys, the rest new keys', () => {
    const batch = generate(spec(), FIELDS, existing, 1_000);
    expect([batch.inserts, batch.updates, batch.deletes.length]).toEqual([300, 150, 50]);
    const updated = batch.upserts.slice(0, 150).map((r) => r.uuid);
    const deleted = batch.deletes.map((r) => r.uuid);
    const known = new Set(existing.map((r) => r.uuid));
    expect(updated.every((k) => known.has(k as string))).toBe(true);
    expect(new Set([...updated, ...deleted]).size).toBe(200); // distinct, and no key both updated and deleted
    expect(batch.upserts.slice(150).every((r) => !known.has(r.uuid as string))).toBe(true);
    expect(new Set(batch.upserts.map((r) => r.uuid)).size).toBe(450);
    // An update keeps its key and partition and gets a later ts; deletes carry the key fields only.
    const first = batch.upserts[0] as Record<string, unknown>;
    expect(first.city).toBe(existing.find((r) => r.uuid === first.uuid)?.city);
    expect(first.ts).toBe(1_000);
    expect(Object.keys(batch.deletes[0] as object).sort()).toEqual(['city', 'uuid']);
  });

  it('keeps only the fields of the table schema', () => {
    const batch = generate(spec({ updateShare: 0, deleteShare: 0, count: 3 }), ['uuid', 'ts', 'fare'], [], 5);
    expect(batch.upserts.map((r) => Object.keys(r))).toEqual([['uuid', 'ts', 'fare'], ['uuid', 'ts', 'fare'], ['uuid', 'ts', 'fare']]);
  });

  it('clamps shares to the existing records and to 100% in total', () => {
    expect(plan(spec(), 0)).toEqual({ inserts: 500, updates: 0, deletes: 0 });
    expect(plan(spec({ updateShare: 0.5, deleteShare: 0.5 }), 100)).toEqual({ inserts: 400, updates: 100, deletes: 0 });
    expect(plan(spec({ updateShare: 0.8, deleteShare: 0.8 }), 10_000)).toEqual({ inserts: 0, updates: 400, deletes: 100 });
    expect(plan(spec({ updateShare: Number.NaN, deleteShare: -1 }), 10)).toEqual({ inserts: 500, updates: 0, deletes: 0 });
  });

  it('skewed picks favour the first-ranked keys and cities; uniform picks spread', () => {
    const hot = (distribution: GeneratorSpec['distribution']) => {
      const picks = weightedSample(1000, 100, distribution, prng(9));
      expect(new Set(picks).size).toBe(100);
      return picks.filter((i) => i < 100).length;
    };
    expect(hot('skewed')).toBeGreaterThan(50);
    expect(hot('uniform')).toBeLessThan(25);
    const cityShare = (distribution: GeneratorSpec['distribution']) => {
      const rows = generate(spec({ distribution, updateShare: 0, deleteShare: 0, count: 2000 }), FIELDS, [], 0).upserts;
      return rows.filter((r) => r.city === CITIES[0]).length / rows.length;
    };
    expect(cityShare('skewed')).toBeGreaterThan(0.3);
    expect(cityShare('uniform')).toBeLessThan(0.2);
  });
});
