// The Avro schemas of v6 clean timeline files as Hudi 0.14/0.15 writes them: HoodieCleanerPlan (`<t>.clean.requested`,
// `.clean.inflight`) and HoodieCleanMetadata (`<t>.clean`); the archived timeline embeds both.

const STR = { type: 'string', 'avro.java.string': 'String' } as const;

/**
 * `HoodieCleanerPlan` as Hudi 0.14/0.15 embeds it (apache/hudi `HoodieCleanerPlan.avsc` with
 * `lastCompletedCommitTimestamp`; strings carry `avro.java.string`).
 */
export const CLEANER_PLAN_SCHEMA = {
  type: 'record',
  name: 'HoodieCleanerPlan',
  namespace: 'org.apache.hudi.avro.model',
  fields: [
    {
      name: 'earliestInstantToRetain',
      type: ['null', {
        type: 'record',
        name: 'HoodieActionInstant',
        fields: [
          { name: 'timestamp', type: STR },
          { name: 'action', type: STR },
          { name: 'state', type: STR },
        ],
      }],
      default: null,
    },
    { name: 'lastCompletedCommitTimestamp', type: STR, default: '' },
    { name: 'policy', type: STR },
    {
      name: 'filesToBeDeletedPerPartition',
      type: ['null', { type: 'map', values: { type: 'array', items: STR }, 'avro.java.string': 'String' }],
      default: null,
    },
    { name: 'version', type: ['int', 'null'], default: 1 },
    {
      name: 'filePathsToBeDeletedPerPartition',
      type: ['null', {
        type: 'map',
        values: {
          type: 'array',
          items: {
            type: 'record',
            name: 'HoodieCleanFileInfo',
            fields: [
              { name: 'filePath', type: ['null', STR], default: null },
              { name: 'isBootstrapBaseFile', type: ['null', 'boolean'], default: null },
            ],
          },
        },
        'avro.java.string': 'String',
      }],
      doc: 'This field replaces the field filesToBeDeletedPerPartition',
      default: null,
    },
    { name: 'partitionsToBeDeleted', type: ['null', { type: 'array', items: STR }], doc: 'partitions to be deleted', default: null },
  ],
} as const;

/** `HoodieCleanPartitionMetadata` (one partition of a completed clean). */
export const CLEAN_PARTITION_METADATA_SCHEMA = {
  type: 'record',
  name: 'HoodieCleanPartitionMetadata',
  fields: [
    { name: 'partitionPath', type: STR },
    { name: 'policy', type: STR },
    { name: 'deletePathPatterns', type: { type: 'array', items: STR } },
    { name: 'successDeleteFiles', type: { type: 'array', items: STR } },
    { name: 'failedDeleteFiles', type: { type: 'array', items: STR } },
    { name: 'isPartitionDeleted', type: ['null', 'boolean'], default: null },
  ],
} as const;

/** `HoodieCleanMetadata` (completed `<t>.clean`) as Hudi 0.14/0.15 embeds it. */
export const CLEAN_METADATA_SCHEMA = {
  type: 'record',
  name: 'HoodieCleanMetadata',
  namespace: 'org.apache.hudi.avro.model',
  fields: [
    { name: 'startCleanTime', type: STR },
    { name: 'timeTakenInMillis', type: 'long' },
    { name: 'totalFilesDeleted', type: 'int' },
    { name: 'earliestCommitToRetain', type: STR },
    { name: 'lastCompletedCommitTimestamp', type: STR, default: '' },
    { name: 'partitionMetadata', type: { type: 'map', values: CLEAN_PARTITION_METADATA_SCHEMA, 'avro.java.string': 'String' } },
    { name: 'version', type: ['int', 'null'], default: 1 },
    {
      name: 'bootstrapPartitionMetadata',
      type: ['null', { type: 'map', values: 'HoodieCleanPartitionMetadata', 'avro.java.string': 'String', default: null }],
      default: null,
    },
  ],
} as const;
