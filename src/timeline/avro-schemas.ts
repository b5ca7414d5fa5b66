// Writer schemas of the Avro timeline files lakelet writes for v6 tables, copied from the `avro.schema`
// header of files Hudi wrote (a fact of the format): `JSON.stringify` of each gives the header text exactly.

/** `HoodieRollbackPlan` (`<t>.rollback.requested`), as embedded in Hudi 0.14/0.15 v6 timeline files. */
export const ROLLBACK_PLAN_SCHEMA = {
  type: 'record',
  name: 'HoodieRollbackPlan',
  namespace: 'org.apache.hudi.avro.model',
  fields: [
    {
      name: 'instantToRollback',
      type: [
        'null',
        {
          type: 'record',
          name: 'HoodieInstantInfo',
          fields: [
            { name: 'commitTime', type: { type: 'string', 'avro.java.string': 'String' } },
            { name: 'action', type: { type: 'string', 'avro.java.string': 'String' } },
          ],
        },
      ],
      doc: 'Hoodie instant that needs to be rolled back',
      default: null,
    },
    {
      name: 'RollbackRequests',
      type: [
        'null',
        {
          type: 'array',
          items: {
            type: 'record',
            name: 'HoodieRollbackRequest',
            fields: [
              { name: 'partitionPath', type: { type: 'string', 'avro.java.string': 'String' } },
              {
                name: 'fileId',
                type: ['null', { type: 'string', 'avro.java.string': 'String' }],
                default: null,
              },
              {
                name: 'latestBaseInstant',
                type: ['null', { type: 'string', 'avro.java.string': 'String' }],
                default: null,
              },
              {
                name: 'filesToBeDeleted',
                type: { type: 'array', items: { type: 'string', 'avro.java.string': 'String' }, default: [] },
                default: [],
              },
              {
                name: 'logBlocksToBeDeleted',
                type: ['null', { type: 'map', values: 'long', 'avro.java.string': 'String' }],
                default: null,
              },
            ],
          },
        },
      ],
      default: null,
    },
    { name: 'version', type: ['int', 'null'], default: 1 },
  ],
} as const;

/** `HoodieRollbackMetadata` (completed `<t>.rollback`), as embedded in Hudi 0.14/0.15 v6 timeline files. */
export const ROLLBACK_METADATA_SCHEMA = {
  type: 'record',
  name: 'HoodieRollbackMetadata',
  namespace: 'org.apache.hudi.avro.model',
  fields: [
    { name: 'startRollbackTime', type: { type: 'string', 'avro.java.string': 'String' } },
    { name: 'timeTakenInMillis', type: 'long' },
    { name: 'totalFilesDeleted', type: 'int' },
    {
      name: 'commitsRollback',
      type: { type: 'array', items: { type: 'string', 'avro.java.string': 'String' } },
    },
    {
      name: 'partitionMetadata',
      type: {
        type: 'map',
        values: {
          type: 'record',
          name: 'HoodieRollbackPartitionMetadata',
          fields: [
            { name: 'partitionPath', type: { type: 'string', 'avro.java.string': 'String' } },
            {
              name: 'successDeleteFiles',
              type: { type: 'array', items: { type: 'string', 'avro.java.string': 'String' } },
            },
            {
              name: 'failedDeleteFiles',
              type: { type: 'array', items: { type: 'string', 'avro.java.string': 'String' } },
            },
            {
              name: 'rollbackLogFiles',
              type: ['null', { type: 'map', values: 'long', 'avro.java.string': 'String' }],
              default: null,
            },
            {
              name: 'logFilesFromFailedCommit',
              type: ['null', { type: 'map', values: 'long', 'avro.java.string': 'String' }],
              default: null,
            },
          ],
        },
        'avro.java.string': 'String',
      },
    },
    { name: 'version', type: ['int', 'null'], default: 1 },
    {
      name: 'instantsRollback',
      type: {
        type: 'array',
        items: {
          type: 'record',
          name: 'HoodieInstantInfo',
          fields: [
            { name: 'commitTime', type: { type: 'string', 'avro.java.string': 'String' } },
            { name: 'action', type: { type: 'string', 'avro.java.string': 'String' } },
          ],
        },
        default: [],
      },
      default: [],
    },
  ],
} as const;

/** `HoodieRequestedReplaceMetadata` (`<t>.replacecommit.requested`), as embedded in Hudi 0.14/0.15 v6 timeline files. */
export const REQUESTED_REPLACE_METADATA_SCHEMA = {
  type: 'record',
  name: 'HoodieRequestedReplaceMetadata',
  namespace: 'org.apache.hudi.avro.model',
  fields: [
    { name: 'operationType', type: ['null', { type: 'string', 'avro.java.string': 'String' }], default: null },
    {
      name: 'clusteringPlan',
      type: [
        'null',
        {
          type: 'record',
          name: 'HoodieClusteringPlan',
          fields: [
            {
              name: 'inputGroups',
              type: [
                'null',
                {
                  type: 'array',
                  items: {
                    type: 'record',
                    name: 'HoodieClusteringGroup',
                    fields: [
                      {
                        name: 'slices',
                        type: [
                          'null',
                          {
                            type: 'array',
                            items: {
                              type: 'record',
                              name: 'HoodieSliceInfo',
                              fields: [
                                {
                                  name: 'dataFilePath',
                                  type: ['null', { type: 'string', 'avro.java.string': 'String' }],
                                  default: null,
                                },
                                {
                                  name: 'deltaFilePaths',
                                  type: [
                                    'null',
                                    { type: 'array', items: { type: 'string', 'avro.java.string': 'String' } },
                                  ],
                                  default: null,
                                },
                                {
                                  name: 'fileId',
                                  type: ['null', { type: 'string', 'avro.java.string': 'String' }],
                                },
                                {
                                  name: 'partitionPath',
                                  type: ['null', { type: 'string', 'avro.java.string': 'String' }],
                                  default: null,
                                },
                                {
                                  name: 'bootstrapFilePath',
                                  type: ['null', { type: 'string', 'avro.java.string': 'String' }],
                                  default: null,
                                },
                                { name: 'version', type: ['int', 'null'], default: 1 },
                              ],
                            },
                          },
                        ],
                        default: null,
                      },
                      {
                        name: 'metrics',
                        type: ['null', { type: 'map', values: 'double', 'avro.java.string': 'String' }],
                        default: null,
                      },
                      { name: 'numOutputFileGroups', type: ['int', 'null'], default: 1 },
                      {
                        name: 'extraMetadata',
                        type: [
                          'null',
                          {
                            type: 'map',
                            values: { type: 'string', 'avro.java.string': 'String' },
                            'avro.java.string': 'String',
                          },
                        ],
                        default: null,
                      },
                      { name: 'version', type: ['int', 'null'], default: 1 },
                    ],
                  },
                },
              ],
              default: null,
            },
            {
              name: 'strategy',
              type: [
                'null',
                {
                  type: 'record',
                  name: 'HoodieClusteringStrategy',
                  fields: [
                    {
                      name: 'strategyClassName',
                      type: ['null', { type: 'string', 'avro.java.string': 'String' }],
                      default: null,
                    },
                    {
                      name: 'strategyParams',
                      type: [
                        'null',
                        {
                          type: 'map',
                          values: { type: 'string', 'avro.java.string': 'String' },
                          'avro.java.string': 'String',
                        },
                      ],
                      default: null,
                    },
                    { name: 'version', type: ['int', 'null'], default: 1 },
                  ],
                },
              ],
              default: null,
            },
            {
              name: 'extraMetadata',
              type: [
                'null',
                {
                  type: 'map',
                  values: { type: 'string', 'avro.java.string': 'String' },
                  'avro.java.string': 'String',
                },
              ],
              default: null,
            },
            { name: 'version', type: ['int', 'null'], default: 1 },
            { name: 'preserveHoodieMetadata', type: ['null', 'boolean'], default: null },
          ],
        },
      ],
      default: null,
    },
    {
      name: 'extraMetadata',
      type: [
        'null',
        {
          type: 'map',
          values: { type: 'string', 'avro.java.string': 'String' },
          'avro.java.string': 'String',
        },
      ],
      default: null,
    },
    { name: 'version', type: ['int', 'null'], default: 1 },
  ],
} as const;
