// The kernel benchmark cases, shared by the Node runner and the Chromium page: deterministic 1M-key data,
// a Hudi-default bloom filter (60000 entries, fpp 1e-9 → m = 2587966, k = 30), and a timing loop.

export const N = 1_000_000;
export const BLOOM_M = 2587966;
export const BLOOM_K = 30;
export const BLOOM_ENTRIES = 60000;

/** mulberry32: deterministic so every process and page measures the same keys. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const HEX = '0123456789abcdef';
/** A v4-UUID-shaped record key (36 bytes), the most common Hudi record key shape. */
function uuid(next) {
  let s = '';
  for (let i = 0; i < 4; i++) {
    const w = next();
    for (let j = 0; j < 8; j++) s += HEX[(w >>> (j * 4)) & 15];
  }
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-a${s.slice(17, 20)}-${s.slice(20, 32)}`;
}

/**
 * Builds the data: `keys` (1M UUID keys, packed), `probeKeys` (1M keys, every other one among the 60000 added
 * to the filter, so ~50 % hits), `bits` (one DYNAMIC_V0 row of Hudi's default size holding 60000 keys).
 */
export function makeData(kernels, packKeys) {
  const next = rng(20240418);
  const keys = Array.from({ length: N }, () => uuid(next));
  const added = keys.slice(0, BLOOM_ENTRIES);
  const probe = Array.from({ length: N }, (_, i) => (i % 2 === 0 ? added[(i >>> 1) % BLOOM_ENTRIES] : uuid(next)));
  const bits = kernels.bloomAdd(new Uint8Array(Math.floor((BLOOM_M + 7) / 8)), BLOOM_M, BLOOM_K, added);
  return { keys: packKeys(keys), probeKeys: packKeys(probe), bits };
}

/** The cases, end to end from packed keys (copy into wasm memory and results out included). */
export function makeCases(data) {
  return [
    { name: 'bloom probe 1M keys (m=2587966, k=30, ~50% hits)', id: 'bloomProbe',
      setup: (k) => k.createBloomProbe(data.bits, BLOOM_M, BLOOM_K, 1),
      run: (k, probe) => probe.probe(data.probeKeys), teardown: (k, probe) => probe.dispose() },
    { name: 'hash 1M keys (xxHash64)', id: 'hashKeys64', run: (k) => k.hashKeys64(data.keys) },
    { name: 'sort 1M keys + permutation', id: 'sortKeys', run: (k) => k.sortKeys(data.keys) },
  ];
}

const now = () => performance.now();

/** Median of numbers. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Checks that all implementations agree on every case (the bench refuses to time wrong answers). */
export function checkAgree(cases, impls) {
  for (const c of cases) {
    let first;
    for (const [name, k] of Object.entries(impls)) {
      const state = c.setup?.(k);
      const out = c.run(k, state);
      c.teardown?.(k, state);
      if (first === undefined) first = out;
      else if (out.length !== first.length || out.some((v, i) => v !== first[i])) throw new Error(`${c.id}: ${name} disagrees with the JS twin`);
    }
  }
}

/** Times every case for every implementation, interleaved; returns samples[caseId][implName] = ms[]. */
export async function measure(cases, impls, { warmup = 3, runs = 11, pause = () => Promise.resolve() } = {}) {
  const samples = {};
  for (const c of cases) {
    samples[c.id] = {};
    const states = {};
    for (const [name, k] of Object.entries(impls)) {
      samples[c.id][name] = [];
      states[name] = c.setup?.(k);
      for (let i = 0; i < warmup; i++) c.run(k, states[name]);
    }
    for (let r = 0; r < runs; r++) {
      for (const [name, k] of Object.entries(impls)) {
        const t0 = now();
        c.run(k, states[name]);
        samples[c.id][name].push(now() - t0);
        await pause();
      }
    }
    for (const [name, k] of Object.entries(impls)) c.teardown?.(k, states[name]);
  }
  return samples;
}
