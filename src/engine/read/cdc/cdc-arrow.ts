// The CDC query as an Arrow Table: columns op, ts_ms (int64), commit_time, before and after (structs of the
// table's data columns, as of the latest schema; null where the change has no such image).
import type { ArrowTable } from '../../../arrow/arrow.js';
import { avroSchemaToJson, parseAvroSchema, type AvroRecordSchema } from '../../../format/avro/schema.js';
import { withoutMetaFields } from '../../../schema/table-schema.js';
import type { TableState } from '../../table-state.js';
import { collectChanges, type ChangesOptions } from './cdc-query.js';

/** The record schema of one change: op, ts_ms, commit_time, and the data record (no meta fields) as before/after. */
export function changeSchema(table: AvroRecordSchema): AvroRecordSchema {
  const image = avroSchemaToJson(withoutMetaFields(table)) as { name?: unknown; namespace?: unknown };
  const fullName = typeof image.namespace === 'string' && image.namespace !== '' ? `${image.namespace}.${String(image.name)}` : String(image.name);
  return parseAvroSchema({
    type: 'record', name: 'lakelet_change', namespace: 'lakelet',
    fields: [
      { name: 'op', type: 'string' },
      { name: 'ts_ms', type: 'long' },
      { name: 'commit_time', type: 'string' },
      { name: 'before', type: ['null', image], default: null },
      { name: 'after', type: ['null', fullName], default: null },
    ],
  }) as AvroRecordSchema;
}

/** Every change of the window (see `commitChanges`) as an Arrow Table. */
export async function collectChangesArrow(state: TableState, options: ChangesOptions): Promise<ArrowTable> {
  const changes = await collectChanges(state, options);
  const schema = changeSchema(await state.schemaAsOf(undefined));
  const { arrowSchema, rowsToArrow } = await import('../../../arrow/arrow.js');
  const rows = changes.map((c) => ({ op: c.op, ts_ms: c.ts_ms, commit_time: c.commitTime, before: c.before, after: c.after }));
  return rowsToArrow(rows, arrowSchema(schema));
}
