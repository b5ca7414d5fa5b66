// The demo's built-in "trips" table (Hudi quickstart style: uuid key, ts ordering, city partition) and a
// generator of random trips mixing new keys with updates of existing ones, yielding to the page as it goes.

/** The trips schema (Avro) given to `createTable`. */
export const TRIPS_SCHEMA = {
  type: 'record',
  name: 'trip',
  fields: [
    { name: 'uuid', type: 'string' },
    { name: 'ts', type: 'long' },
    { name: 'city', type: 'string' },
    { name: 'rider', type: 'string' },
    { name: 'driver', type: 'string' },
    { name: 'fare', type: 'double' },
  ],
};

/** Key, ordering and partition fields of the trips table. */
export const TRIPS_KEYS = { recordKey: 'uuid', orderingField: 'ts', partitionBy: ['city'] } as const;

/** An existing record: its key and partition (an update must stay in its partition). */
export interface TripKey {
  uuid: string;
  city: string;
}

export interface Trip extends TripKey {
  ts: number;
  rider: string;
  driver: string;
  fare: number;
}

const CITIES = ['san_francisco', 'sao_paulo', 'chennai', 'amsterdam', 'tokyo'];
/** Share of the rows that update existing keys (when there are enough). */
const UPDATE_SHARE = 0.3;
/** Rows generated between two yields to the event loop. */
const BATCH = 250;

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)] as T;
const letter = () => String.fromCharCode(65 + Math.floor(Math.random() * 26));
const fare = () => Math.round((5 + Math.random() * 95) * 100) / 100;

/** `count` distinct random items of `xs` (partial Fisher–Yates on a copy). */
export function sample<T>(xs: readonly T[], count: number): T[] {
  const copy = xs.slice();
  const n = Math.min(count, copy.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(Math.random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, n);
}

/** Let the page paint and handle input. */
export const nextFrame = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * `count` random trips: about 30% re-use existing keys (same city, later ts, new fare and driver), the rest
 * are new. Async, yielding every few hundred rows; `onRow(done, count)` reports progress.
 */
export async function* randomTrips(count: number, existing: readonly TripKey[], onRow?: (done: number, total: number) => void): AsyncGenerator<Trip> {
  const updates = sample(existing, Math.round(count * UPDATE_SHARE));
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    const old = updates[i];
    const key = old ?? { uuid: crypto.randomUUID(), city: pick(CITIES) };
    yield { ...key, ts: now + i, rider: `rider-${letter()}`, driver: `driver-${letter()}`, fare: fare() };
    if ((i + 1) % BATCH === 0) {
      onRow?.(i + 1, count);
      await nextFrame();
    }
  }
  onRow?.(count, count);
}
