// Deterministic trips-like rows for the benchmark: every row is a pure function of its index (hashed with a
// fixed seed), so any process can regenerate row i, its key and its partition without shared state.

/** The ten partition values (`city=…`). */
export const CITIES = ['amsterdam', 'berlin', 'chennai', 'lisbon', 'nairobi', 'osaka', 'paris', 'san_francisco', 'sao_paulo', 'toronto'];

/** The table schema (Avro): uuid key, ts ordering field, city partition, doubles, strings, a decimal. */
export const TRIP_SCHEMA = {
  type: 'record',
  name: 'trip',
  fields: [
    { name: 'uuid', type: 'string' },
    { name: 'ts', type: 'long' },
    { name: 'rider', type: 'string' },
    { name: 'driver', type: ['null', 'string'], default: null },
    { name: 'begin_lat', type: 'double' },
    { name: 'begin_lon', type: 'double' },
    { name: 'end_lat', type: 'double' },
    { name: 'end_lon', type: 'double' },
    { name: 'fare', type: { type: 'fixed', name: 'fare_fixed', size: 5, logicalType: 'decimal', precision: 10, scale: 2 } },
    { name: 'city', type: 'string' },
  ],
};

const SEED = 0x5eed1e7;

/** murmur3's 32-bit finalizer over (i, salt): a stateless, well-mixed hash. */
export function mix(i, salt) {
  let h = (Math.imul(i, 0x9e3779b1) ^ Math.imul(salt + SEED, 0x85ebca6b)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const hex8 = (n) => n.toString(16).padStart(8, '0');
/** A unit double in [0, 1) from (i, salt). */
const unit = (i, salt) => mix(i, salt) / 4294967296;

/** The record key of row i: a uuid-shaped string (uniformly spread, so key ranges of files overlap). */
export function tripKey(i) {
  const a = hex8(mix(i, 11));
  const b = hex8(mix(i, 12));
  const c = hex8(mix(i, 13));
  const d = hex8(mix(i, 14));
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${c.slice(0, 4)}-${c.slice(4)}${d}`;
}

/** The partition value of row i. */
export function tripCity(i) {
  return CITIES[mix(i, 1) % CITIES.length];
}

/**
 * Row i at `version` (0 = as bulk inserted; higher versions have a larger ts, so they win an upsert, and
 * other values). Key and city never change between versions.
 */
export function tripRow(i, version = 0) {
  const v = version * 7919;
  return {
    uuid: tripKey(i),
    ts: 1_700_000_000_000 + version * 10_000_000_000 + (mix(i, 2 + v) % 2_592_000_000),
    rider: `rider-${hex8(mix(i, 3 + v) % 100_000).slice(3)}`,
    driver: mix(i, 4 + v) % 20 === 0 ? null : `driver-${hex8(mix(i, 5 + v) % 50_000).slice(3)}`,
    begin_lat: unit(i, 6 + v) * 180 - 90,
    begin_lon: unit(i, 7 + v) * 360 - 180,
    end_lat: unit(i, 8 + v) * 180 - 90,
    end_lon: unit(i, 9 + v) * 360 - 180,
    fare: ((mix(i, 10 + v) % 2_000_000) / 100).toFixed(2),
    city: tripCity(i),
  };
}

/** Rows [start, end) at version 0. */
export function* tripRows(start, end) {
  for (let i = start; i < end; i++) yield tripRow(i, 0);
}

/** mulberry32: a small seeded PRNG (uint32 → [0, 1)). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The upsert batch: `updates` distinct existing rows (indices drawn uniformly from [0, tableRows), so every
 * partition and file is hit) at version 1, then `inserts` new rows (indices tableRows, tableRows+1, …).
 */
export function upsertBatch(tableRows, updates, inserts) {
  const rand = prng(SEED ^ 0xabcdef);
  const picked = new Set();
  const want = Math.min(updates, tableRows);
  while (picked.size < want) picked.add(Math.floor(rand() * tableRows));
  const rows = [];
  for (const i of picked) rows.push(tripRow(i, 1));
  for (let i = tableRows; i < tableRows + inserts; i++) rows.push(tripRow(i, 0));
  return rows;
}
