// Avro JSON field defaults (as written in a schema) converted to lakelet's value model, for the fields a row
// leaves out.
import { LakeletError } from '../errors.js';
import type { AvroSchema } from '../format/avro/schema.js';
import { avroTypeName } from './avro-types.js';
import { isPlainObject, show } from './row-errors.js';
import { MicrosDate } from './timestamp-micros.js';
import { bigIntFromTwosComplement, formatDecimal } from './values.js';

/** Milliseconds in a day: `date` values are whole UTC days. */
export const MS_PER_DAY = 86_400_000;

/**
 * An Avro JSON default value converted to the value model; `INVALID_ARGUMENT` "schema: field 'path' has a
 * default ... that does not fit T" when it does not fit the field's type.
 */
export function defaultValue(type: AvroSchema, json: unknown, path: string): unknown {
  const bad = (): LakeletError => new LakeletError('INVALID_ARGUMENT', `schema: field '${path}' has a default ${show(json)} that does not fit ${avroTypeName(type)}`, { field: path, value: json });
  if (json === null) {
    if (type.type === 'null' || (type.type === 'union' && type.branches[0]?.type === 'null')) return null;
    throw bad();
  }
  switch (type.type) {
    case 'union': {
      const first = type.branches[0];
      if (first === undefined) throw bad();
      return defaultValue(first, json, path);
    }
    case 'boolean': if (typeof json !== 'boolean') throw bad(); return json;
    case 'int': {
      if (typeof json !== 'number' || !Number.isInteger(json)) throw bad();
      return type.logicalType?.name === 'date' ? new Date(json * MS_PER_DAY) : json;
    }
    case 'long': {
      if (typeof json !== 'number' || !Number.isInteger(json)) throw bad();
      const logical = type.logicalType?.name;
      if (logical === 'timestamp-millis' || logical === 'local-timestamp-millis') return new Date(json);
      if (logical === 'timestamp-micros' || logical === 'local-timestamp-micros') return new MicrosDate(BigInt(json));
      return BigInt(json);
    }
    case 'float': case 'double': if (typeof json !== 'number') throw bad(); return type.type === 'float' ? Math.fround(json) : json;
    case 'string': case 'enum': if (typeof json !== 'string') throw bad(); return json;
    case 'bytes': case 'fixed': {
      if (typeof json !== 'string') throw bad();
      const bytes = Uint8Array.from(json, (c) => c.charCodeAt(0) & 0xff);
      if (type.logicalType?.name === 'decimal') return formatDecimal(bigIntFromTwosComplement(bytes), type.logicalType.scale);
      return bytes;
    }
    case 'array': if (!Array.isArray(json)) throw bad(); return json.map((x, i) => defaultValue(type.items, x, `${path}[${i}]`));
    case 'map': {
      if (!isPlainObject(json)) throw bad();
      return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, defaultValue(type.values, v, `${path}.${k}`)]));
    }
    case 'record': {
      if (!isPlainObject(json)) throw bad();
      const out: Record<string, unknown> = {};
      for (const f of type.fields) {
        if (f.name in json) out[f.name] = defaultValue(f.type, json[f.name], `${path}.${f.name}`);
        else if (f.hasDefault) out[f.name] = defaultValue(f.type, f.default, `${path}.${f.name}`);
        else throw bad();
      }
      return out;
    }
    default: throw bad();
  }
}
