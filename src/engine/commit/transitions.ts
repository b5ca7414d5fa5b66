// Timeline transitions of any action (hudi-format.md §3.2): requested → inflight → completed, each a timeline
// file named by timeline/instant.ts at a path from layout.ts. A create is atomic (writeIfAbsent) where the
// protocol needs one winner, and a create whose answer was lost after it took effect is recognised as ours.
import type { TableConfig } from '../../config/table-config.js';
import { instantFilePath, type TimelineLocation } from '../../layout.js';
import type { Storage } from '../../storage/storage.js';
import type { Action, InstantState } from '../../timeline/instant.js';
import { requestInstant, type RequestInstantOptions } from './instant-request.js';

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
}

const EMPTY = new Uint8Array(0);

/** The timeline files of one instant (layout 1), and the steps that write, check and remove them. */
export class InstantTransition {
  constructor(
    readonly storage: Storage,
    readonly table: TimelineLocation,
    readonly instantTime: string,
    readonly action: Action,
  ) {}

  /** Path of the instant's file in `state` (`<t>.<action>.requested`, `<t>.inflight`, `<t>.commit` for a compaction…). */
  path(state: InstantState): string {
    return instantFilePath(this.table, this.instantTime, this.action, state);
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
      await this.storage.head(this.path(state));
      return true;
    } catch {
      return false;
    }
  }

  /** Does the file of `state` hold exactly `bytes`? (False when it cannot be read.) */
  async holds(state: InstantState, bytes: Uint8Array): Promise<boolean> {
    try {
      const found = await this.storage.read(this.path(state));
      return found.length === bytes.length && found.every((b, i) => b === bytes[i]);
    } catch {
      return false;
    }
  }

  /** Delete the files of `states`, in the order given (idempotent). */
  async remove(...states: InstantState[]): Promise<void> {
    for (const state of states) await this.storage.delete(this.path(state));
  }

  private async put(state: InstantState, bytes: Uint8Array, options: TransitionWriteOptions): Promise<boolean> {
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
export function instantTransition(storage: Storage, table: TimelineLocation, instantTime: string, action: Action): InstantTransition {
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
