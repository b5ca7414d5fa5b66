// The parsed Avro schema tree parseAvroSchema (schema.ts) returns: primitives with their logical types, records
// with fields, enums, fixed, arrays, maps and unions; named types carry their full name.

/** The eight Avro primitive type names. */
export type AvroPrimitiveName = 'null' | 'boolean' | 'int' | 'long' | 'float' | 'double' | 'bytes' | 'string';

/** A logical type annotation that was valid for its underlying type (invalid ones are ignored, per the Avro spec). */
export type AvroLogicalType =
  | { name: 'decimal'; precision: number; scale: number }
  | { name: 'date' }
  | { name: 'time-millis' }
  | { name: 'time-micros' }
  | { name: 'timestamp-millis' }
  | { name: 'timestamp-micros' }
  | { name: 'local-timestamp-millis' }
  | { name: 'local-timestamp-micros' }
  | { name: 'uuid' };

/** A primitive type, possibly annotated with a logical type. */
export interface AvroPrimitiveSchema {
  type: AvroPrimitiveName;
  logicalType?: AvroLogicalType;
}

/** One field of a record. `default` holds the raw JSON default when `hasDefault` is true. */
export interface AvroField {
  name: string;
  type: AvroSchema;
  hasDefault: boolean;
  default?: unknown;
  aliases?: string[];
  doc?: string;
}

/** A record type. `name` is the short name, `fullName` the namespace-qualified one. */
export interface AvroRecordSchema {
  type: 'record';
  name: string;
  namespace: string;
  fullName: string;
  fields: AvroField[];
  aliases?: string[];
  doc?: string;
}

/** An enum type with its symbols in ordinal order. */
export interface AvroEnumSchema {
  type: 'enum';
  name: string;
  namespace: string;
  fullName: string;
  symbols: string[];
  default?: string;
  aliases?: string[];
}

/** A fixed-size byte type, possibly a decimal or uuid. */
export interface AvroFixedSchema {
  type: 'fixed';
  name: string;
  namespace: string;
  fullName: string;
  size: number;
  logicalType?: AvroLogicalType;
  aliases?: string[];
}

/** An array type. */
export interface AvroArraySchema {
  type: 'array';
  items: AvroSchema;
}

/** A map type (keys are always strings). */
export interface AvroMapSchema {
  type: 'map';
  values: AvroSchema;
}

/** A union; `branches` are in declaration order (the binary branch index refers to this order). */
export interface AvroUnionSchema {
  type: 'union';
  branches: AvroSchema[];
}

/** Any parsed Avro schema node. Named types referenced twice are the same object (recursion allowed). */
export type AvroSchema =
  | AvroPrimitiveSchema
  | AvroRecordSchema
  | AvroEnumSchema
  | AvroFixedSchema
  | AvroArraySchema
  | AvroMapSchema
  | AvroUnionSchema;

/** A named schema node (record, enum or fixed). */
export type AvroNamedSchema = AvroRecordSchema | AvroEnumSchema | AvroFixedSchema;
