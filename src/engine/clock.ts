// The time source of the engine: instant times, heartbeats, heartbeat timeouts and the commit lock's expiry
// and back-off all read it, so tests can drive "a writer paused past the heartbeat timeout" deterministically.

/** Where the engine gets the time and how it waits. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Wait `ms` milliseconds (a test clock may advance virtual time and return at once). */
  sleep(ms: number): Promise<void>;
}

/** The real clock: `Date.now()` and `setTimeout`. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * A clock that moves only when told (or when someone sleeps on it): for deterministic tests of timeouts.
 * `sleep(ms)` advances the time by `ms` and resolves on the next microtask.
 */
export function manualClock(start = Date.UTC(2026, 0, 1)): Clock & { advance(ms: number): void; set(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    sleep: async (ms) => {
      t += Math.max(0, ms);
    },
    advance(ms) {
      t += ms;
    },
    set(ms) {
      t = ms;
    },
  };
}
