// The demo's record generator: a batch of trips mixing new records, updates and deletes of existing keys, in
// shares the user sets, with uniform or skewed (Zipf-like: hot keys, hot cities) choices from a seeded PRNG,
// so the same seed on the same table state gives the same batch. `generateInSlices` builds the same batch a
// slice of rows at a time, handing the page's thread back between slices (a 10k batch is no single long task).
import { nextTask } from './next-task.js';
import { CITIES, type Trip } from './trips.js';

/** What to generate. */
export interface GeneratorSpec {
  /** Rows in the batch (inserts + updates + deletes). */
  count: number;
  /** Share of the rows that update existing records (0..1). */
  updateShare: number;
  /** Share of the rows that delete existing records (0..1). */
  deleteShare: number;
  /** How keys and cities are picked: evenly, or a few hot ones most of the time. */
  distribution: 'uniform' | 'skewed';
  seed: number;
}

/** A generated batch: rows to upsert (new and updated records) and existing records to delete. */
export interface GeneratedBatch {
  upserts: Record<string, unknown>[];
  deletes: Record<string, unknown>[];
  inserts: number;
  updates: number;
}

/** Zipf exponent of the skewed distribution. */
const SKEW = 1.2;

/** mulberry32: a small, fast, seedable PRNG returning floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mix two numbers into one 32-bit seed. */
export function mixSeed(a: number, b: number): number {
  return Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35);
}

/** Weight of the item at rank `i` (0 = hottest). */
const weight = (distribution: GeneratorSpec['distribution'], i: number) => (distribution === 'uniform' ? 1 : 1 / (i + 1) ** SKEW);

/**
 * `k` distinct indexes of `0..n-1`, weighted by rank (Efraimidis–Spirakis: the k largest `u^(1/w)`); an
 * ordinary uniform sample when the distribution is uniform.
 */
export function weightedSample(n: number, k: number, distribution: GeneratorSpec['distribution'], random: () => number): number[] {
  const keyed = Array.from({ length: n }, (_, i) => ({ i, key: random() ** (1 / weight(distribution, i)) }));
  keyed.sort((a, b) => b.key - a.key);
  return keyed.slice(0, Math.min(k, n)).map((e) => e.i);
}

/** One index of `0..n-1`, weighted by rank. */
function pickIndex(n: number, distribution: GeneratorSpec['distribution'], random: () => number): number {
  if (distribution === 'uniform') return Math.floor(random() * n);
  let total = 0;
  for (let i = 0; i < n; i++) total += weight(distribution, i);
  let r = random() * total;
  for (let i = 0; i < n; i++) {
    r -= weight(distribution, i);
    if (r < 0) return i;
  }
  return n - 1;
}

const HEX = '0123456789abcdef';
/** `digits` hex digits from the PRNG, one draw each, in order. */
function hex(random: () => number, digits: number): string {
  let out = '';
  for (let i = 0; i < digits; i++) out += HEX[Math.floor(random() * 16)];
  return out;
}
const letter = (random: () => number) => String.fromCharCode(65 + Math.floor(random() * 26));

/** A UUID-shaped id from the PRNG (version-4 layout). */
function seededUuid(random: () => number): string {
  return `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-${'89ab'[Math.floor(random() * 4)]}${hex(random, 3)}-${hex(random, 12)}`;
}

/** Only the fields the table's schema has. */
function project(trip: Trip, fields: readonly string[]): Record<string, unknown> {
  const t = trip as unknown as Record<string, unknown>;
  return Object.fromEntries(fields.map((f) => [f, t[f]]));
}

/**
 * Clamp a spec to what the table allows: shares in [0, 1] summing to at most 1, updates and deletes at most
 * the existing records (an empty table gets inserts only).
 */
export function plan(spec: GeneratorSpec, existing: number): { inserts: number; updates: number; deletes: number } {
  const share = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
  const u = share(spec.updateShare);
  const d = Math.min(share(spec.deleteShare), 1 - u);
  const updates = Math.min(Math.round(spec.count * u), existing);
  const deletes = Math.min(Math.round(spec.count * d), existing - updates);
  return { inserts: spec.count - updates - deletes, updates, deletes };
}

/** Rows built between two hand-backs of {@link generateInSlices}. */
export const SLICE_ROWS = 1000;

/**
 * The batch, built in steps: the generator yields after every `sliceRows` rows and returns the batch. The PRNG
 * is drawn in the same order however it is stepped, so every way of running it gives the same batch.
 */
function* building(spec: GeneratorSpec, fields: readonly string[], existing: readonly Record<string, unknown>[], now: number, sliceRows: number): Generator<void, GeneratedBatch> {
  const random = prng(spec.seed);
  const { inserts, updates, deletes } = plan(spec, existing.length);
  const picked = weightedSample(existing.length, updates + deletes, spec.distribution, random);
  const trip = (i: number, keep: Record<string, unknown> | undefined): Trip => {
    const ts = now + i;
    const fresh: Trip = {
      uuid: seededUuid(random),
      ts,
      city: CITIES[pickIndex(CITIES.length, spec.distribution, random)] as string,
      day: new Date(ts).toISOString().slice(0, 10),
      rider: `rider-${letter(random)}${letter(random)}`,
      driver: `driver-${letter(random)}${letter(random)}`,
      fare: Math.round((5 + random() * 95) * 100) / 100,
    };
    return keep ? { ...fresh, ...keep, ts } as Trip : fresh;
  };
  const upserts: Record<string, unknown>[] = [];
  for (let i = 0; i < updates + inserts; i++) {
    if (i > 0 && i % sliceRows === 0) yield;
    upserts.push(project(trip(i, i < updates ? existing[picked[i] as number] : undefined), fields));
  }
  const deleted = picked.slice(updates).map((i) => ({ ...existing[i] }));
  return { upserts, deletes: deleted, inserts, updates };
}

/**
 * Generate a batch for a table whose schema has `fields`, whose records are `existing` (their key and partition
 * fields; updates and deletes keep them), at wall-clock `now` (the `ts` of new versions, so they win).
 */
export function generate(spec: GeneratorSpec, fields: readonly string[], existing: readonly Record<string, unknown>[], now: number): GeneratedBatch {
  const steps = building(spec, fields, existing, now, Number.MAX_SAFE_INTEGER);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The batch of {@link generate} (the same rows for the same arguments), built `sliceRows` rows at a time with
 * `await pause()` between slices, so the page stays responsive while a large batch is built.
 */
export async function generateInSlices(spec: GeneratorSpec, fields: readonly string[], existing: readonly Record<string, unknown>[], now: number,
  pause: () => Promise<void> = nextTask, sliceRows = SLICE_ROWS): Promise<GeneratedBatch> {
  const steps = building(spec, fields, existing, now, Math.max(1, Math.floor(sliceRows)));
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pause();
  }
}
