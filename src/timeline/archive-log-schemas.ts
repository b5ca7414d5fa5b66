// The Avro schemas of the layout-1 (v6) archived timeline: `HoodieArchivedMetaEntry` and the commit,
// replace-commit and deprecated compaction metadata records it nests (apache/hudi `HoodieArchivedMetaEntry.avsc`).
import { type AvroSchema, parseAvroSchema } from '../format/avro/schema.js';
import { REQUESTED_REPLACE_METADATA_SCHEMA, ROLLBACK_METADATA_SCHEMA } from './avro-schemas.js';
import { CLEAN_METADATA_SCHEMA, CLEANER_PLAN_SCHEMA } from './clean-schemas.js';
import { COMPACTION_PLAN_SCHEMA } from './compaction-plan.js';
import { SAVEPOINT_METADATA_SCHEMA } from './savepoint-metadata.js';
import { COMMIT_METADATA_FILE_SCHEMA } from './commit-metadata-avro.js';

const STR = { type: 'string', 'avro.java.string': 'String' } as const;
const OPT_STR = ['null', STR] as const;
const OPT_LONG = ['null', 'long'] as const;
const n = (name: string, type: unknown) => ({ name, type, default: null });

/** `HoodieCommitMetadata` (Avro) as archived entries embed it: the same record as layout 2's commit files. */
export const COMMIT_METADATA_AVRO_SCHEMA = COMMIT_METADATA_FILE_SCHEMA;

/** `HoodieReplaceCommitMetadata` (Avro), write stats by reference to `HoodieWriteStat`. */
export const REPLACE_COMMIT_METADATA_AVRO_SCHEMA = {
  type: 'record',
  name: 'HoodieReplaceCommitMetadata',
  namespace: 'org.apache.hudi.avro.model',
  fields: [
    n('partitionToWriteStats', ['null', { type: 'map', values: { type: 'array', items: 'HoodieWriteStat' }, 'avro.java.string': 'String' }]),
    n('compacted', ['null', 'boolean']),
    n('extraMetadata', ['null', { type: 'map', values: STR, 'avro.java.string': 'String' }]),
    { name: 'version', type: ['int', 'null'], default: 1 },
    n('operationType', OPT_STR),
    n('partitionToReplaceFileIds', ['null', { type: 'map', values: { type: 'array', items: STR }, 'avro.java.string': 'String' }]),
  ],
} as const;

/** Deprecated `HoodieCompactionMetadata` (still a field of archived entries). */
const COMPACTION_METADATA_AVRO_SCHEMA = {
  type: 'record',
  name: 'HoodieCompactionMetadata',
  namespace: 'org.apache.hudi.avro.model',
  fields: [
    {
      name: 'partitionToCompactionWriteStats',
      type: ['null', {
        type: 'map',
        values: {
          type: 'array',
          items: {
            type: 'record',
            name: 'HoodieCompactionWriteStat',
            fields: [n('partitionPath', OPT_STR), n('totalLogRecords', OPT_LONG), n('totalLogFiles', OPT_LONG), n('totalUpdatedRecordsCompacted', OPT_LONG), n('hoodieWriteStat', ['null', 'HoodieWriteStat'])],
          },
        },
        'avro.java.string': 'String',
      }],
    },
  ],
} as const;

/** `HoodieArchivedMetaEntry` (apache/hudi `HoodieArchivedMetaEntry.avsc`, Hudi 0.14 fields), nested types inline. */
export const ARCHIVED_META_ENTRY_SCHEMA = {
  type: 'record',
  name: 'HoodieArchivedMetaEntry',
  namespace: 'org.apache.hudi.avro.model',
  fields: [
    n('hoodieCommitMetadata', ['null', COMMIT_METADATA_AVRO_SCHEMA]),
    n('hoodieCleanMetadata', ['null', CLEAN_METADATA_SCHEMA]),
    n('hoodieCompactionMetadata', ['null', COMPACTION_METADATA_AVRO_SCHEMA]),
    n('hoodieRollbackMetadata', ['null', ROLLBACK_METADATA_SCHEMA]),
    n('hoodieSavePointMetadata', ['null', SAVEPOINT_METADATA_SCHEMA]),
    n('commitTime', OPT_STR),
    n('actionType', OPT_STR),
    { name: 'version', type: ['int', 'null'], default: 1 },
    n('hoodieCompactionPlan', ['null', COMPACTION_PLAN_SCHEMA]),
    n('hoodieCleanerPlan', ['null', CLEANER_PLAN_SCHEMA]),
    n('actionState', OPT_STR),
    n('hoodieReplaceCommitMetadata', ['null', REPLACE_COMMIT_METADATA_AVRO_SCHEMA]),
    n('hoodieRequestedReplaceMetadata', ['null', REQUESTED_REPLACE_METADATA_SCHEMA]),
    n('HoodieInflightReplaceMetadata', ['null', 'HoodieCommitMetadata']),
  ],
} as const;

/** {@link ARCHIVED_META_ENTRY_SCHEMA} as JSON text (the SCHEMA header of archive log blocks). */
export const ARCHIVED_META_ENTRY_JSON = JSON.stringify(ARCHIVED_META_ENTRY_SCHEMA);
let archivedSchema: AvroSchema | undefined;
/** The parsed {@link ARCHIVED_META_ENTRY_SCHEMA}. */
export function archivedMetaEntrySchema(): AvroSchema {
  archivedSchema ??= parseAvroSchema(ARCHIVED_META_ENTRY_JSON);
  return archivedSchema;
}
