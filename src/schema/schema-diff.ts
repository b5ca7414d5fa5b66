// What changed between two table schemas (added and removed columns, type changes such as promotions and
// nullability), field by field with dotted paths into nested records: the "what changed" of a schema history.
import type { AvroRecordSchema, AvroSchema } from '../format/avro/schema.js';
import { avroTypeName } from './avro-types.js';
import { nonNullType } from './table-schema.js';

/** One difference between two schemas; `field` is a dotted path (`address.zip`) for nested record fields. */
export type SchemaChange =
  | { kind: 'added'; field: string; type: string }
  | { kind: 'removed'; field: string; type: string }
  | { kind: 'type-changed'; field: string; from: string; to: string };

/** A type for messages: `long`, `nullable long`, `record Address`, `decimal(10,2)`. */
export function describeFieldType(type: AvroSchema): string {
  const { type: base, nullable } = nonNullType(type);
  const name = base.type === 'null' ? 'null' : avroTypeName(base);
  return nullable && base.type !== 'null' ? `nullable ${name}` : name;
}

/**
 * The changes from `previous` to `next`, in `next`'s field order (additions and type changes) followed by the
 * removals in `previous`'s order. Fields whose types are records on both sides are compared field by field;
 * any other difference in a field's type (including array items or map values) is one `type-changed`.
 */
export function diffSchemas(previous: AvroRecordSchema, next: AvroRecordSchema): SchemaChange[] {
  const out: SchemaChange[] = [];
  diffRecords(previous, next, '', out);
  return out;
}

function diffRecords(previous: AvroRecordSchema, next: AvroRecordSchema, prefix: string, out: SchemaChange[]): void {
  const before = new Map(previous.fields.map((f) => [f.name, f.type]));
  const after = new Set(next.fields.map((f) => f.name));
  for (const f of next.fields) {
    const field = prefix + f.name;
    const old = before.get(f.name);
    if (old === undefined) {
      out.push({ kind: 'added', field, type: describeFieldType(f.type) });
      continue;
    }
    const a = nonNullType(old);
    const b = nonNullType(f.type);
    if (a.type.type === 'record' && b.type.type === 'record') {
      if (a.nullable !== b.nullable) out.push({ kind: 'type-changed', field, from: describeFieldType(old), to: describeFieldType(f.type) });
      diffRecords(a.type, b.type, `${field}.`, out);
      continue;
    }
    const from = typeKey(old);
    const to = typeKey(f.type);
    if (from !== to) out.push({ kind: 'type-changed', field, from: describeFieldType(old), to: describeFieldType(f.type) });
  }
  for (const f of previous.fields) if (!after.has(f.name)) out.push({ kind: 'removed', field: prefix + f.name, type: describeFieldType(f.type) });
}

/** A structural key of a type, ignoring docs, defaults and branch order of nullable unions. */
function typeKey(type: AvroSchema): string {
  const { type: base, nullable } = nonNullType(type);
  return `${nullable ? '?' : ''}${structure(base)}`;
}

function structure(t: AvroSchema): string {
  switch (t.type) {
    case 'record': return `record ${t.fullName}{${t.fields.map((f) => `${f.name}:${typeKey(f.type)}`).join(',')}}`;
    case 'enum': return `enum ${t.fullName}[${t.symbols.join(',')}]`;
    case 'array': return `array<${typeKey(t.items)}>`;
    case 'map': return `map<${typeKey(t.values)}>`;
    case 'union': return `union<${t.branches.map(structure).join('|')}>`;
    default: return avroTypeName(t) + (t.type === 'fixed' ? `/${t.size}` : `/${t.type}`);
  }
}
