// User-supplied table schemas: Avro objects, Avro JSON and Arrow schemas (duck-typed, Arrow loaded only for
// them) normalised to an Avro record without meta fields; non-records and meta-only schemas refused.
import { describe, expect, test } from 'vitest';
import { Field, Schema, Utf8 } from 'apache-arrow';
import { avroSchemaToJson, isParsedAvroSchema, parseAvroSchema, type AvroRecordSchema } from '../../src/format/avro/schema.js';
import { isArrowSchema, normalizeUserSchema } from '../../src/schema/user-schema.js';
import { failure } from '../helpers/expect-error.js';

const json = (s: AvroRecordSchema) => avroSchemaToJson(s) as { name: string; namespace?: string; fields: { name: string; type: unknown; default?: unknown }[] };

describe('normalizeUserSchema', () => {
  const avro = { type: 'record', name: 'trip', namespace: 'x', fields: [
    { name: '_hoodie_commit_time', type: ['null', 'string'], default: null },
    { name: '_hoodie_record_key', type: ['null', 'string'], default: null },
    { name: 'id', type: 'string' },
    { name: 'fare', type: ['null', 'double'], default: null },
  ] };

  test('Avro objects and JSON text keep their names and lose meta fields', async () => {
    for (const input of [avro, JSON.stringify(avro), parseAvroSchema(avro)]) {
      const s = await normalizeUserSchema(input, 'ignored');
      expect(isParsedAvroSchema(s)).toBe(true);
      expect(s.fullName).toBe('x.trip');
      expect(s.fields.map((f) => f.name)).toEqual(['id', 'fare']);
    }
  });

  test('Arrow schemas are converted and named', async () => {
    const s = await normalizeUserSchema(new Schema([new Field('id', new Utf8(), false), new Field('_hoodie_file_name', new Utf8())]), 'tbl_record');
    expect(s.name).toBe('tbl_record');
    expect(json(s).fields).toEqual([{ name: 'id', type: 'string' }]);
  });

  test('non-records, invalid JSON and meta-only schemas are refused', async () => {
    expect((await failure(normalizeUserSchema('"string"', 'r'))).code).toBe('INVALID_ARGUMENT');
    expect((await failure(normalizeUserSchema('{not json', 'r'))).code).toBe('INVALID_ARGUMENT');
    expect((await failure(normalizeUserSchema({ type: 'record', name: 'r', fields: [{ name: '_hoodie_commit_time', type: 'string' }] }, 'r'))).code).toBe('INVALID_ARGUMENT');
  });
});

describe('isArrowSchema', () => {
  test('Arrow schemas match, Avro schemas (JSON, objects, parsed) do not', () => {
    expect(isArrowSchema(new Schema([new Field('id', new Utf8())]))).toBe(true);
    expect(isArrowSchema(new Schema([]))).toBe(true);
    const avro = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }] };
    expect(isArrowSchema(avro)).toBe(false);
    expect(isArrowSchema(parseAvroSchema(avro))).toBe(false);
    expect(isArrowSchema({ type: 'record', name: 'r', fields: [] })).toBe(false);
    expect(isArrowSchema(JSON.stringify(avro))).toBe(false);
    expect(isArrowSchema(null)).toBe(false);
  });
});
