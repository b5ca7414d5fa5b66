// A committed write's HTTP callback (Hudi calls it back after commit and the inline services): the commit
// event read from the table, POSTed per the write's `commitCallback` option; a failure becomes the write's
// `commit-callback` warning, never an error. Loaded (with http-callback.ts) only by writes that set a callback.
import type { EngineContext } from '../context.js';
import type { WriteWarning } from '../services/post-commit.js';
import type { ResolvedWriteOptions } from '../write/write-options.js';
import { postCommitCallback } from './http-callback.js';
import { commitEvent } from './commit-event.js';

/**
 * POST the commit event of the write instant `instantTime` when `options.commitCallback` asks for it. Resolves
 * with the warnings of a failed callback (none when it succeeded or none was asked for); never rejects.
 */
export async function runCommitCallback(ctx: EngineContext, instantTime: string, options: ResolvedWriteOptions): Promise<WriteWarning[]> {
  const callback = options.commitCallback;
  if (callback === undefined) return [];
  const warn = (message: string): WriteWarning[] => [{ service: 'commit-callback', code: 'ABORTED', message: `commit callback: POST ${callback.url} for ${instantTime} failed: ${message}; the write is committed` }];
  try {
    const state = await ctx.snapshot();
    const instant = state.timeline.completedAt(instantTime);
    if (instant === undefined) return warn('the instant is no longer on the active timeline');
    const failure = await postCommitCallback(await commitEvent(state, instant), callback, options.clock);
    return failure === undefined ? [] : warn(failure);
  } catch (err) {
    return warn(err instanceof Error ? err.message : String(err));
  }
}
