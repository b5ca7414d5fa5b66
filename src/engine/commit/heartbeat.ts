// Writer heartbeats (Hudi's `.hoodie/.heartbeat/<instant>`): a write in progress refreshes its heartbeat
// file, so other writers roll back only pending writes whose heartbeat stopped (failed writers), never one
// that is still running on another tab, process or machine.
import { isLakeletError } from '../../errors.js';
import { heartbeatPath } from '../../layout.js';
import { parseInstantTime } from '../../timeline/instant-time.js';
import type { Storage } from '../../storage/storage.js';
import { systemClock, type Clock } from '../clock.js';

/** Default heartbeat interval and the silence after which a pending write counts as failed. */
export const HEARTBEAT_INTERVAL_MS = 15_000;
export const HEARTBEAT_TIMEOUT_MS = 60_000;

/** A running heartbeat: refresh it while writing, stop it when done. */
export interface Heartbeat {
  /** Write the heartbeat now (the write loop calls it between steps; a timer also does). */
  beat(): Promise<void>;
  /** Stop beating and remove the file. */
  stop(): Promise<void>;
}

/**
 * Start a heartbeat for `instantTime`: the file holds the clock's time of the last beat. With the system
 * clock a timer also beats every `intervalMs`; with any other clock (a test's manual clock) no timer runs —
 * the write loop's own `beat()` calls between steps are the only beats, so virtual time decides everything.
 */
export async function startHeartbeat(storage: Storage, instantTime: string, intervalMs = HEARTBEAT_INTERVAL_MS, clock: Clock = systemClock): Promise<Heartbeat> {
  const path = heartbeatPath(instantTime);
  let last = 0;
  let stopped = false;
  const beat = async () => {
    if (stopped) return;
    last = clock.now();
    await storage.write(path, new TextEncoder().encode(String(last)));
  };
  await beat();
  const timer = clock === systemClock
    ? setInterval(() => {
      if (clock.now() - last >= intervalMs) beat().catch(() => undefined);
    }, intervalMs)
    : undefined;
  (timer as { unref?: () => void } | undefined)?.unref?.();
  return {
    beat,
    stop: async () => {
      stopped = true;
      if (timer !== undefined) clearInterval(timer);
      await storage.delete(path).catch(() => undefined);
    },
  };
}

/**
 * Is the writer of a pending instant gone? True when its heartbeat is older than `timeoutMs` (the time
 * written in the file counts), or missing while the instant itself is older than that. "Now" is read from
 * `clock` (or given as epoch milliseconds).
 */
export async function heartbeatExpired(storage: Storage, instantTime: string, timeoutMs = HEARTBEAT_TIMEOUT_MS, clock: Clock | number = systemClock): Promise<boolean> {
  if (timeoutMs <= 0) return true;
  const now = typeof clock === 'number' ? clock : clock.now();
  const path = heartbeatPath(instantTime);
  try {
    const written = Number(new TextDecoder().decode(await storage.read(path)));
    // The time the writer wrote into it; the store's modification time only when the content is unreadable.
    const at = Number.isFinite(written) && written > 0 ? written : (await storage.head(path)).lastModified ?? 0;
    return now - at > timeoutMs;
  } catch (err) {
    // No heartbeat (yet, or ever): the instant's own time says when the writer was last known alive.
    if (isLakeletError(err, 'NOT_FOUND')) {
      const started = instantMillis(instantTime);
      return started === undefined || now - started > timeoutMs;
    }
    throw err;
  }
}

/** Epoch milliseconds of an instant time (UTC, as lakelet writes them), or undefined when unparsable. */
function instantMillis(instantTime: string): number | undefined {
  try {
    return parseInstantTime(instantTime).getTime();
  } catch {
    return undefined;
  }
}
