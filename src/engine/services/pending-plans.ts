// Running the pending plans of a table service (compaction, clustering), oldest first: each plan is run in turn
// (a crashed run starts over, the plan's heartbeat decides who runs it); a plan another runner holds (its
// heartbeat is live: `CONFLICT`), completed or dropped meanwhile (`ABORTED`) is skipped — except the `required`
// one (the plan an explicit call just scheduled), whose `CONFLICT`/`ABORTED` is thrown so the caller learns why
// it did not complete instead of reading "nothing to do". Any other error is thrown at once.
import { isLakeletError } from '../../errors.js';

/**
 * Run `run` on every plan of `plans` in order and return the results of the runs that completed. `instantOf`
 * names a plan's instant (compared with `required`).
 */
export async function runPendingPlans<P, R>(plans: Iterable<P>, instantOf: (plan: P) => string, run: (plan: P) => Promise<R>, required?: string): Promise<R[]> {
  const results: R[] = [];
  for (const plan of plans) {
    try {
      results.push(await run(plan));
    } catch (err) {
      if (instantOf(plan) === required || (!isLakeletError(err, 'CONFLICT') && !isLakeletError(err, 'ABORTED'))) throw err;
    }
  }
  return results;
}
