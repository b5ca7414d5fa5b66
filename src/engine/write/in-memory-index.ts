// The IN_MEMORY index (Hudi's HoodieInMemoryHashIndex): a key → location map of the whole table, owned by the
// index object a Table keeps for its writes, built from every latest slice once and kept in step with each
// commit in place; rebuilt when the timeline moved on without it (another writer, a rollback, a restore).
import { fileGroupKey, type FileSlice } from '../../file-group/file-slice.js';
import type { TagMap } from '../../index/index-type.js';
import type { WriteWarning } from '../services/post-commit.js';
import { locationOf } from './base-file-index.js';
import { sliceKeyReaderFor, tagWith, type CommittedWrite, type Index, type SliceKeyReader, type TagInput, type TaggedRecords } from './tag.js';

/** The IN_MEMORY index and its key map (keyed by record key: the index is global). */
export class InMemoryIndex implements Index {
  readonly type = 'IN_MEMORY' as const;
  /** The key map, mutated in place. */
  readonly map: TagMap = new Map();
  /**
   * The latest completed write the map reflects: `null` for a table without writes, `undefined` when the map
   * is not built (or was dropped).
   */
  private instant: string | null | undefined = undefined;

  /** The latest completed write the map reflects (`undefined`: not built). */
  get builtAt(): string | null | undefined {
    return this.instant;
  }

  tag(input: TagInput): Promise<TaggedRecords> {
    return tagWith(input, true, { locate: () => this.current(input) });
  }

  /**
   * After a commit: the file groups the write rewrote lose their old keys and get the keys written. Overwrites
   * and merge-on-read writes (log files) change locations in ways a rebuild gets right more simply: the map is
   * dropped. So is a map that did not reflect the state the write started from.
   */
  async update(commit: CommittedWrite): Promise<WriteWarning[]> {
    const base = latestWrite(commit.state);
    if (this.instant === undefined || this.instant !== base || commit.replacing || commit.state.config.tableType === 'MERGE_ON_READ') {
      this.drop();
      return [];
    }
    const rewritten = new Set(commit.results.map((r) => fileGroupKey(r.stat.partitionPath, r.stat.fileId)));
    for (const [k, loc] of this.map) if (rewritten.has(fileGroupKey(loc.partitionPath, loc.fileId))) this.map.delete(k);
    for (const r of commit.results) for (const k of r.keys) this.map.set(k, { partitionPath: r.stat.partitionPath, fileId: r.stat.fileId, baseInstantTime: commit.instantTime });
    this.instant = commit.instantTime;
    return [];
  }

  /** Forget the map (the next tagging rebuilds it). */
  drop(): void {
    this.map.clear();
    this.instant = undefined;
  }

  /** The map as of the write's state: kept when it reflects the latest write, else rebuilt in place. */
  private async current(input: TagInput): Promise<TagMap> {
    const latest = latestWrite(input.state);
    if (this.instant === latest) return this.map;
    this.drop();
    await fillKeyMap(this.map, input.slices, sliceKeyReaderFor(input.state, input.merge.orderingFields, input.merge.orderingKinds));
    this.instant = latest;
    return this.map;
  }
}

function latestWrite(state: TagInput['state']): string | null {
  return state.timeline.latestWrite()?.requestedTime ?? null;
}

/** Every live key of `slices` into `map` (key → location). */
export async function fillKeyMap(map: TagMap, slices: readonly FileSlice[], readKeys: SliceKeyReader): Promise<TagMap> {
  for (const slice of slices) for (const key of await readKeys(slice)) map.set(key, locationOf(slice));
  return map;
}
