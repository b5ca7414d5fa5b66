// HoodieCompactionPlan (`<t>.compaction.requested`): which file slices a compaction merges — each
// operation names a slice's base file and log files. Avro, with Hudi's writer schema as data.
import { corruptFile } from '../errors.js';
import { readAvroContainer, writeAvroContainer } from '../format/avro/container.js';

const STR = { type: 'string', 'avro.java.string': 'String' };

/** Hudi's `HoodieCompactionPlan` schema, as embedded in the compaction plans Hudi writes. */
export const COMPACTION_PLAN_SCHEMA = {
  type: 'record', name: 'HoodieCompactionPlan', namespace: 'org.apache.hudi.avro.model',
  fields: [
    {
      name: 'operations',
      type: ['null', {
        type: 'array',
        items: {
          type: 'record', name: 'HoodieCompactionOperation',
          fields: [
            { name: 'baseInstantTime', type: ['null', STR] },
            { name: 'deltaFilePaths', type: ['null', { type: 'array', items: STR }], default: null },
            { name: 'dataFilePath', type: ['null', STR], default: null },
            { name: 'fileId', type: ['null', STR] },
            { name: 'partitionPath', type: ['null', STR], default: null },
            { name: 'metrics', type: ['null', { type: 'map', values: 'double', 'avro.java.string': 'String' }], default: null },
            { name: 'bootstrapFilePath', type: ['null', STR], default: null },
          ],
        },
      }],
      default: null,
    },
    { name: 'extraMetadata', type: ['null', { type: 'map', values: STR, 'avro.java.string': 'String' }], default: null },
    { name: 'version', type: ['int', 'null'], default: 1 },
    {
      name: 'strategy',
      type: ['null', {
        type: 'record', name: 'HoodieCompactionStrategy',
        fields: [
          {
            name: 'compactorClassName', type: ['null', STR],
            doc: 'The class name that is provided here should extend CompactionExecutionStrategy abstract class, idea is that the plan generator will also provide the execution strategy to use.',
            default: null,
          },
          {
            name: 'strategyParams', type: ['null', { type: 'map', values: STR, 'avro.java.string': 'String' }],
            doc: 'These parameters play a key role in determining which action type it is i.e. compaction or logcompaction and it will also include configs that determine how compaction needs to be executed.',
            default: null,
          },
          { name: 'version', type: ['int', 'null'], default: 1 },
        ],
      }],
      default: null,
    },
    { name: 'preserveHoodieMetadata', type: ['boolean', 'null'], default: false },
    { name: 'missingSchedulePartitions', type: ['null', { type: 'array', items: STR }], default: null },
  ],
};

/** One slice to compact. */
export interface CompactionOperation {
  /** Instant of the slice's base file (the slice key). */
  baseInstantTime: string;
  /** Log file names (not paths) of the slice, in order. */
  deltaFilePaths: string[];
  /** Base file name, or undefined for a log-only slice. */
  dataFilePath: string | undefined;
  fileId: string;
  partitionPath: string;
  metrics: Record<string, number>;
}

/** A compaction plan. */
export interface CompactionPlan {
  operations: CompactionOperation[];
  extraMetadata: Record<string, string>;
  version: number;
}

/** Encode a plan as Hudi does (Avro object container, version 2 as Hudi 0.14+ writes). */
export function serializeCompactionPlan(plan: Pick<CompactionPlan, 'operations'> & Partial<CompactionPlan>): Uint8Array {
  return writeAvroContainer(COMPACTION_PLAN_SCHEMA, [{
    operations: plan.operations.map((o) => ({
      baseInstantTime: o.baseInstantTime,
      deltaFilePaths: o.deltaFilePaths,
      dataFilePath: o.dataFilePath ?? null,
      fileId: o.fileId,
      partitionPath: o.partitionPath,
      metrics: o.metrics,
      bootstrapFilePath: null,
    })),
    extraMetadata: plan.extraMetadata ?? null,
    version: plan.version ?? 2,
    strategy: null,
    preserveHoodieMetadata: false,
    missingSchedulePartitions: null,
  }]);
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** Decode a `<t>.compaction.requested` file; bad shapes → `CORRUPT_FILE` naming `path`. */
export function parseCompactionPlan(bytes: Uint8Array, path: string): CompactionPlan {
  const record = readAvroContainer(bytes, path).records[0] as Record<string, unknown> | undefined;
  if (!record || typeof record !== 'object') throw corruptFile('compaction plan: no record', path);
  const ops = Array.isArray(record.operations) ? record.operations : [];
  return {
    operations: ops.map((raw, i) => {
      const o = raw as Record<string, unknown>;
      const fileId = str(o.fileId);
      const baseInstantTime = str(o.baseInstantTime);
      if (!fileId || baseInstantTime === undefined) throw corruptFile(`compaction plan: operation ${i} has no fileId or baseInstantTime`, path);
      const metrics: Record<string, number> = {};
      for (const [k, v] of Object.entries((o.metrics ?? {}) as Record<string, unknown>)) if (typeof v === 'number') metrics[k] = v;
      return {
        baseInstantTime,
        deltaFilePaths: Array.isArray(o.deltaFilePaths) ? o.deltaFilePaths.filter((x): x is string => typeof x === 'string') : [],
        dataFilePath: str(o.dataFilePath) || undefined,
        fileId,
        partitionPath: str(o.partitionPath) ?? '',
        metrics,
      };
    }),
    extraMetadata: Object.fromEntries(Object.entries((record.extraMetadata ?? {}) as Record<string, unknown>).filter(([, v]) => typeof v === 'string')) as Record<string, string>,
    version: typeof record.version === 'number' ? record.version : 1,
  };
}
