// Instants: the timeline's entries. Names for both file-name layouts (1: `<t>.<action>[.<state>]`,
// 2: completed as `<t>_<completion>.<action>`), states, actions and their ordering (hudi-format.md §3).

/** An instant's state: requested → inflight → completed. */
export type InstantState = 'REQUESTED' | 'INFLIGHT' | 'COMPLETED';

/** Actions that can appear on a Hudi timeline. */
export const TIMELINE_ACTIONS = [
  'commit', 'deltacommit', 'replacecommit', 'compaction', 'logcompaction', 'clustering',
  'clean', 'rollback', 'savepoint', 'restore', 'indexing', 'schemacommit',
] as const;
/** One of {@link TIMELINE_ACTIONS}. */
export type Action = (typeof TIMELINE_ACTIONS)[number];

/** Actions whose completed instants make data visible (a compaction completes as `commit`, v8+ clustering as `replacecommit`). */
export const WRITE_ACTIONS: ReadonlySet<string> = new Set(['commit', 'deltacommit', 'replacecommit']);

/** One timeline file, parsed. */
export interface Instant {
  /** The instant time (`yyyyMMddHHmmssSSS`): when the action was requested. */
  requestedTime: string;
  /** The action, as named in the file (`commit`, `deltacommit`, `compaction`, …). */
  action: Action;
  state: InstantState;
  /** When the action completed (layout 2 only: part of the completed file's name). */
  completionTime: string | undefined;
  /** The timeline file's name. */
  fileName: string;
}

const ACTION_SET: ReadonlySet<string> = new Set(TIMELINE_ACTIONS);
const TIME = /^\d{14}(\d{3})?$/;

/**
 * Parse a timeline file name, or return undefined for names that are not instants (hoodie.properties,
 * folders, `.crc` files, junk). `<t>.inflight` alone is a commit in flight (layout 1 and 2).
 */
export function parseInstantFileName(fileName: string): Instant | undefined {
  const parts = fileName.split('.');
  const time = parts[0] ?? '';
  let requestedTime = time;
  let completionTime: string | undefined;
  const us = time.indexOf('_');
  if (us >= 0) {
    requestedTime = time.slice(0, us);
    completionTime = time.slice(us + 1);
    if (!TIME.test(completionTime)) return undefined;
  }
  if (!TIME.test(requestedTime)) return undefined;
  if (parts.length === 2) {
    const word = parts[1] as string;
    if (word === 'inflight' && completionTime === undefined) return { requestedTime, action: 'commit', state: 'INFLIGHT', completionTime, fileName };
    if (!ACTION_SET.has(word)) return undefined;
    return { requestedTime, action: word as Action, state: 'COMPLETED', completionTime, fileName };
  }
  if (parts.length === 3 && completionTime === undefined) {
    const word = parts[1] as string;
    const state = parts[2] === 'requested' ? 'REQUESTED' : parts[2] === 'inflight' ? 'INFLIGHT' : undefined;
    if (!state || !ACTION_SET.has(word)) return undefined;
    return { requestedTime, action: word as Action, state, completionTime, fileName };
  }
  return undefined;
}

/** The timeline file names of one instant, one per state (layout 1). */
export interface InstantFileNames {
  /** `<t>.<action>.requested`. */
  requested: string;
  /** `<t>.<action>.inflight`; a commit's is `<t>.inflight` (no action word, as Hudi writes it). */
  inflight: string;
  /** `<t>.<completed action>`: a compaction completes as `<t>.commit` (see {@link completedAction}). */
  completed: string;
}

/**
 * The layout-1 file names of an instant (hudi-format.md §3.2), the inverse of {@link parseInstantFileName}.
 * lakelet writes layout 1 only (table version 6): layout 2 names a completed instant by its completion time too.
 */
export function instantFileNames(instantTime: string, action: Action): InstantFileNames {
  return {
    requested: `${instantTime}.${action}.requested`,
    inflight: action === 'commit' ? `${instantTime}.inflight` : `${instantTime}.${action}.inflight`,
    completed: `${instantTime}.${completedAction(action)}`,
  };
}

/** The layout-1 file name of one state of an instant (see {@link instantFileNames}). */
export function instantFileName(instantTime: string, action: Action, state: InstantState): string {
  const names = instantFileNames(instantTime, action);
  return state === 'REQUESTED' ? names.requested : state === 'INFLIGHT' ? names.inflight : names.completed;
}

/** The action a completed instant shows in its file name (compaction → commit, clustering → replacecommit, logcompaction → deltacommit). */
export function completedAction(action: Action): Action {
  if (action === 'compaction') return 'commit';
  if (action === 'clustering') return 'replacecommit';
  if (action === 'logcompaction') return 'deltacommit';
  return action;
}

/** Compare instant times (equal-length digit strings compare as text; a shorter legacy time is padded). */
export function compareInstantTimes(a: string, b: string): number {
  const x = a.length === b.length ? a : a.padEnd(17, '0');
  const y = a.length === b.length ? b : b.padEnd(17, '0');
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The earliest possible instant time, used as the default start of incremental ranges. */
export const INIT_INSTANT_TIME = '00000000000000000';
