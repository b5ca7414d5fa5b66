// Questions about an Avro type asked by row validation and schema evolution: its short name for messages,
// and whether it admits null.
import type { AvroSchema } from '../format/avro/schema.js';

/** A short name of a type, for messages: `double`, `decimal(10,2)`, `timestamp-micros`, `record Trip`. */
export function avroTypeName(type: AvroSchema): string {
  switch (type.type) {
    case 'record': return `record ${type.name}`;
    case 'enum': return `enum ${type.name}`;
    case 'fixed': return type.logicalType?.name === 'decimal' ? `decimal(${type.logicalType.precision},${type.logicalType.scale})` : `fixed(${type.size})`;
    case 'array': return `array<${avroTypeName(type.items)}>`;
    case 'map': return `map<${avroTypeName(type.values)}>`;
    case 'union': return type.branches.map(avroTypeName).join(' | ');
    default:
      if (type.logicalType?.name === 'decimal') return `decimal(${type.logicalType.precision},${type.logicalType.scale})`;
      return type.logicalType?.name ?? type.type;
  }
}

/** Whether `t` admits null: the null type, or a union with a null branch. */
export const isNullable = (t: AvroSchema): boolean => t.type === 'null' || (t.type === 'union' && t.branches.some((b) => b.type === 'null'));
