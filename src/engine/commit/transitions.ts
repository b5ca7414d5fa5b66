// Timeline transitions of any action (hudi-format.md §3.2): requested → inflight → completed, each a timeline
// file named by timeline/instant.ts at a path from layout.ts. A create is atomic (writeIfAbsent) where the
// protocol needs one winner, and a create whose answer was lost after it took effect is recognised as ours.
// Layout 2 (v8/v9) names the completed file `<t>_<c>.<action>` by its completion time c, minted from the clock
// when the file is written (later than every time on the timeline, hudi-v9-write.md §1); it is found by listing.
import type { TableConfig } from '../../config/table-config.js';
import { LakeletError } from '../../errors.js';
import { baseName, completedInstantFilePath, instantFilePath, timelineFilePath, type TimelineLocation } from '../../layout.js';
import type { Storage } from '../../storage/storage.js';
import { completedAction, parseInstantFileName, type Action, type Instant, type InstantState } from '../../timeline/instant.js';
import { systemClock, type Clock } from '../clock.js';
import { completionTimeFor, requestInstant, type RequestInstantOptions } from './instant-request.js';

/** Where an instant's files live: the timeline folder and, for layout 2, the layout (a `TableConfig` fits). */
export type TransitionLocation = TimelineLocation & { timelineLayoutVersion?: number };

/** How a transition writes its timeline file. */
export interface TransitionWriteOptions {
  /**
   * `create` (default): atomically, only if absent (writeIfAbsent) — the answer says whether this call created
   * it. `overwrite`: a plain write (a rollback re-run rewrites its own plan and metadata).
   */
  mode?: 'create' | 'overwrite';
  /**
   * When a create fails (its acknowledgement may be lost after it took effect), how to recognise the file as
   * this caller's: `exists` — it is there (only this caller ever creates it: its instant is its own);
   * `same-bytes` — it holds exactly these bytes. Unset: the error propagates.
   */
  landed?: 'exists' | 'same-bytes';
  /** Layout 2: the clock the completion time is read from (default the system clock). */
  clock?: Clock;
}

const EMPTY = new Uint8Array(0);

/** The timeline files of one instant, and the steps that write, check and remove them. */
export class InstantTransition {
  constructor(
    readonly storage: Storage,
    readonly table: TransitionLocation,
    readonly instantTime: string,
    readonly action: Action,
  ) {}

  /** True on a layout-2 timeline (completed files named by their completion time). */
  get layout2(): boolean {
    return this.table.timelineLayoutVersion === 2;
  }

  /**
   * Path of the instant's file in `state` (`<t>.<action>.requested`, `<t>.inflight`, `<t>.commit` for a
   * compaction…). On layout 2 the completed file's name holds its completion time: use {@link completedPath}.
   */
  path(state: InstantState): string {
    if (state === 'COMPLETED' && this.layout2) throw new LakeletError('INVALID_ARGUMENT', `timeline: the completed file of ${this.instantTime} on a layout-2 timeline is found by listing (completedPath)`, { instant: this.instantTime });
    return instantFilePath(this.table, this.instantTime, this.action, state);
  }

  /** Path of the completed file, if there is one (layout 1: when it exists; layout 2: found by listing the timeline). */
  async completedPath(): Promise<string | undefined> {
    if (!this.layout2) return (await this.exists('COMPLETED')) ? this.path('COMPLETED') : undefined;
    return this.completedIn(await this.listTimeline());
  }

  /** The timeline folder's instant files. */
  private async listTimeline(): Promise<Instant[]> {
    const out: Instant[] = [];
    for (const f of await this.storage.list(this.table.timelinePath)) {
      const i = f.kind === 'file' ? parseInstantFileName(baseName(f.path)) : undefined;
      if (i) out.push(i);
    }
    return out;
  }

  /** This instant's completed file among `files`, as a path. */
  private completedIn(files: readonly Instant[]): string | undefined {
    const action = completedAction(this.action);
    const done = files.find((i) => i.state === 'COMPLETED' && i.requestedTime === this.instantTime && i.action === action);
    return done === undefined ? undefined : timelineFilePath(this.table, done.fileName);
  }

  /** Write the requested file (the plan). True when written — false when `create` found it already there. */
  request(bytes: Uint8Array = EMPTY, options: TransitionWriteOptions = {}): Promise<boolean> {
    return this.put('REQUESTED', bytes, options);
  }

  /** Write the inflight file (a plain write: a re-run of the same instant rewrites it). */
  async markInflight(bytes: Uint8Array = EMPTY): Promise<void> {
    await this.storage.write(this.path('INFLIGHT'), bytes);
  }

  /**
   * Write the completed file — the step that makes the instant count. True when this call created it (or
   * recognised its own landed create, see {@link TransitionWriteOptions.landed}); false when `create` found
   * it already there.
   */
  complete(bytes: Uint8Array, options: TransitionWriteOptions = {}): Promise<boolean> {
    return this.put('COMPLETED', bytes, options);
  }

  /** Is the file of `state` there? (False when the store cannot tell.) */
  async exists(state: InstantState): Promise<boolean> {
    try {
      if (state === 'COMPLETED' && this.layout2) return (await this.completedPath()) !== undefined;
      await this.storage.head(this.path(state));
      return true;
    } catch {
      return false;
    }
  }

  /** Does the file of `state` hold exactly `bytes`? (False when it cannot be read.) */
  async holds(state: InstantState, bytes: Uint8Array): Promise<boolean> {
    try {
      const path = state === 'COMPLETED' && this.layout2 ? await this.completedPath() : this.path(state);
      if (path === undefined) return false;
      const found = await this.storage.read(path);
      return found.length === bytes.length && found.every((b, i) => b === bytes[i]);
    } catch {
      return false;
    }
  }

  /** Delete the files of `states`, in the order given (idempotent). */
  async remove(...states: InstantState[]): Promise<void> {
    for (const state of states) {
      const path = state === 'COMPLETED' && this.layout2 ? await this.completedPath() : this.path(state);
      if (path !== undefined) await this.storage.delete(path);
    }
  }

  /**
   * Layout 2: write the completed file `<t>_<c>.<action>`, c minted now. `create`: false when a completed file
   * is there already; `overwrite` rewrites the one there (a re-run), else creates it.
   */
  private async putCompleted(bytes: Uint8Array, options: TransitionWriteOptions): Promise<boolean> {
    const timeline = await this.listTimeline();
    const existing = this.completedIn(timeline);
    if (existing !== undefined) {
      if (options.mode !== 'overwrite') return false;
      await this.storage.write(existing, bytes);
      return true;
    }
    const completion = completionTimeFor(this.instantTime, timeline, new Date((options.clock ?? systemClock).now()));
    const path = completedInstantFilePath(this.table, this.instantTime, this.action, completion);
    try {
      return await this.storage.writeIfAbsent(path, bytes);
    } catch (err) {
      if (options.landed === 'exists' && (await this.exists('COMPLETED'))) return true;
      if (options.landed === 'same-bytes' && (await this.holds('COMPLETED', bytes))) return true;
      throw err;
    }
  }

  private async put(state: InstantState, bytes: Uint8Array, options: TransitionWriteOptions): Promise<boolean> {
    if (state === 'COMPLETED' && this.layout2) return this.putCompleted(bytes, options);
    const path = this.path(state);
    if (options.mode === 'overwrite') {
      await this.storage.write(path, bytes);
      return true;
    }
    try {
      return await this.storage.writeIfAbsent(path, bytes);
    } catch (err) {
      if (options.landed === 'exists' && (await this.exists(state))) return true;
      if (options.landed === 'same-bytes' && (await this.holds(state, bytes))) return true;
      throw err;
    }
  }
}

/** The transitions of the instant `instantTime` of `action` on the timeline of `table`. */
export function instantTransition(storage: Storage, table: TransitionLocation, instantTime: string, action: Action): InstantTransition {
  return new InstantTransition(storage, table, instantTime, action);
}

/**
 * Request a new instant of `action`: its requested file (holding `bytes`) created under the commit lock at a
 * fresh time later than every instant on the timeline (see engine/commit/instant-request.ts).
 */
export async function requestNewInstant(storage: Storage, config: TableConfig, action: Action, bytes: Uint8Array, options: RequestInstantOptions = {}): Promise<InstantTransition> {
  const time = await requestInstant(storage, config, action, bytes, options);
  return instantTransition(storage, config, time, action);
}
