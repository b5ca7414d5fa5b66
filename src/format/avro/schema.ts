// Avro schema parsing: JSON text or object → a normalized tree with named types resolved by full name
// (namespaces applied), logical types validated, and recursion kept as shared node references.

import { LakeletError, corruptFile } from '../../errors.js';
import { avroSchemaToJson } from './schema-json.js';
import type { AvroPrimitiveName, AvroLogicalType, AvroPrimitiveSchema, AvroField, AvroRecordSchema, AvroEnumSchema, AvroFixedSchema, AvroUnionSchema, AvroSchema, AvroNamedSchema } from './schema-types.js';

export type { AvroPrimitiveName, AvroLogicalType, AvroPrimitiveSchema, AvroField, AvroRecordSchema, AvroEnumSchema, AvroFixedSchema, AvroArraySchema, AvroMapSchema, AvroUnionSchema, AvroSchema, AvroNamedSchema } from './schema-types.js';
export { avroSchemaToJson } from './schema-json.js';

/** Options for {@link parseAvroSchema}. */
export interface ParseAvroSchemaOptions {
  /** File the schema came from; when set, errors are `CORRUPT_FILE` naming it, else `INVALID_ARGUMENT`. */
  path?: string;
}

const PRIMITIVES = new Set<string>(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const parsedNodes = new WeakSet<object>();
const originalJson = new WeakMap<object, string>();

/** True when `value` is a node produced by {@link parseAvroSchema}. */
export function isParsedAvroSchema(value: unknown): value is AvroSchema {
  return typeof value === 'object' && value !== null && parsedNodes.has(value);
}

/**
 * Parse an Avro schema from JSON text or a JSON-like object. Already-parsed nodes are returned unchanged.
 * Throws `LakeletError` (`CORRUPT_FILE` when `options.path` is set, else `INVALID_ARGUMENT`) on invalid schemas.
 */
export function parseAvroSchema(schema: string | object, options: ParseAvroSchemaOptions = {}): AvroSchema {
  if (isParsedAvroSchema(schema)) return schema;
  const fail = (message: string, cause?: unknown): LakeletError =>
    options.path === undefined
      ? new LakeletError('INVALID_ARGUMENT', `avro schema: ${message}`, {}, { cause })
      : corruptFile(`avro schema: ${message}`, options.path, undefined, cause);
  let json: unknown = schema;
  let text: string;
  if (typeof schema === 'string') {
    text = schema;
    try {
      json = JSON.parse(schema);
    } catch (err) {
      throw fail(`not valid JSON (${(err as Error).message})`, err);
    }
  } else {
    text = JSON.stringify(schema);
  }
  const root = new SchemaParser(fail).parse(json, '');
  originalJson.set(root, text);
  return root;
}

class SchemaParser {
  private readonly named = new Map<string, AvroNamedSchema>();
  constructor(private readonly fail: (message: string, cause?: unknown) => LakeletError) {}

  parse(json: unknown, namespace: string): AvroSchema {
    if (typeof json === 'string') return this.reference(json, namespace);
    if (Array.isArray(json)) return this.union(json, namespace);
    if (typeof json !== 'object' || json === null) throw this.fail(`expected a type, got ${JSON.stringify(json)}`);
    const obj = json as Record<string, unknown>;
    const type = obj.type;
    if (typeof type !== 'string') {
      if (typeof type === 'object' && type !== null) return this.parse(type, namespace);
      throw this.fail(`missing "type" in ${JSON.stringify(json).slice(0, 80)}`);
    }
    switch (type) {
      case 'record':
      case 'error':
        return this.record(obj, namespace);
      case 'enum':
        return this.enumType(obj, namespace);
      case 'fixed':
        return this.fixed(obj, namespace);
      case 'array':
        return this.mark({ type: 'array', items: this.parse(obj.items, namespace) });
      case 'map':
        return this.mark({ type: 'map', values: this.parse(obj.values, namespace) });
      default:
        if (PRIMITIVES.has(type)) {
          const node: AvroPrimitiveSchema = { type: type as AvroPrimitiveName };
          const logical = this.logical(obj, node.type, undefined);
          if (logical !== undefined) node.logicalType = logical;
          return this.mark(node);
        }
        return this.reference(type, namespace);
    }
  }

  private mark<T extends AvroSchema>(node: T): T {
    parsedNodes.add(node);
    return node;
  }

  private reference(name: string, namespace: string): AvroSchema {
    if (PRIMITIVES.has(name)) return this.mark({ type: name as AvroPrimitiveName });
    const candidates = name.includes('.') ? [name] : namespace === '' ? [name] : [`${namespace}.${name}`, name];
    for (const c of candidates) {
      const found = this.named.get(c);
      if (found !== undefined) return found;
    }
    throw this.fail(`unknown type "${name}"`);
  }

  private union(items: unknown[], namespace: string): AvroUnionSchema {
    const branches = items.map((item) => {
      const branch = this.parse(item, namespace);
      if (branch.type === 'union') throw this.fail('unions may not immediately contain other unions');
      return branch;
    });
    return this.mark({ type: 'union', branches });
  }

  private names(obj: Record<string, unknown>, namespace: string): { name: string; namespace: string; fullName: string } {
    const raw = obj.name;
    if (typeof raw !== 'string' || raw === '') throw this.fail(`named type without a name: ${JSON.stringify(obj).slice(0, 80)}`);
    let ns = typeof obj.namespace === 'string' ? obj.namespace : namespace;
    let name = raw;
    const dot = raw.lastIndexOf('.');
    if (dot >= 0) {
      ns = raw.slice(0, dot);
      name = raw.slice(dot + 1);
    }
    if (!NAME_RE.test(name)) throw this.fail(`invalid name "${raw}"`);
    if (ns !== '' && !ns.split('.').every((part) => NAME_RE.test(part))) throw this.fail(`invalid namespace "${ns}"`);
    if (PRIMITIVES.has(name) && ns === '') throw this.fail(`"${name}" cannot be redefined`);
    const fullName = ns === '' ? name : `${ns}.${name}`;
    if (this.named.has(fullName)) throw this.fail(`duplicate definition of "${fullName}"`);
    return { name, namespace: ns, fullName };
  }

  private aliases(obj: Record<string, unknown>): string[] | undefined {
    const a = obj.aliases;
    if (a === undefined) return undefined;
    if (!Array.isArray(a) || !a.every((x) => typeof x === 'string')) throw this.fail('"aliases" must be an array of strings');
    return a as string[];
  }

  private record(obj: Record<string, unknown>, namespace: string): AvroRecordSchema {
    const n = this.names(obj, namespace);
    const node: AvroRecordSchema = this.mark({ type: 'record', ...n, fields: [] });
    const aliases = this.aliases(obj);
    if (aliases !== undefined) node.aliases = aliases;
    if (typeof obj.doc === 'string') node.doc = obj.doc;
    this.named.set(n.fullName, node);
    if (!Array.isArray(obj.fields)) throw this.fail(`record "${n.fullName}" has no "fields" array`);
    const seen = new Set<string>();
    for (const f of obj.fields as unknown[]) {
      if (typeof f !== 'object' || f === null) throw this.fail(`record "${n.fullName}" has a malformed field`);
      const fo = f as Record<string, unknown>;
      if (typeof fo.name !== 'string' || !NAME_RE.test(fo.name)) throw this.fail(`record "${n.fullName}" has a field with invalid name ${JSON.stringify(fo.name)}`);
      if (seen.has(fo.name)) throw this.fail(`record "${n.fullName}" has duplicate field "${fo.name}"`);
      seen.add(fo.name);
      if (!('type' in fo)) throw this.fail(`field "${n.fullName}.${fo.name}" has no type`);
      const field: AvroField = { name: fo.name, type: this.parse(fo.type, n.namespace), hasDefault: 'default' in fo };
      if (field.hasDefault) field.default = fo.default;
      const fa = this.aliases(fo);
      if (fa !== undefined) field.aliases = fa;
      if (typeof fo.doc === 'string') field.doc = fo.doc;
      node.fields.push(field);
    }
    return node;
  }

  private enumType(obj: Record<string, unknown>, namespace: string): AvroEnumSchema {
    const n = this.names(obj, namespace);
    const symbols = obj.symbols;
    if (!Array.isArray(symbols) || !symbols.every((s) => typeof s === 'string' && NAME_RE.test(s)))
      throw this.fail(`enum "${n.fullName}" needs an array of symbol names`);
    if (new Set(symbols).size !== symbols.length) throw this.fail(`enum "${n.fullName}" has duplicate symbols`);
    const node: AvroEnumSchema = this.mark({ type: 'enum', ...n, symbols: symbols as string[] });
    if (typeof obj.default === 'string') {
      if (!node.symbols.includes(obj.default)) throw this.fail(`enum "${n.fullName}" default is not a symbol`);
      node.default = obj.default;
    }
    const aliases = this.aliases(obj);
    if (aliases !== undefined) node.aliases = aliases;
    this.named.set(n.fullName, node);
    return node;
  }

  private fixed(obj: Record<string, unknown>, namespace: string): AvroFixedSchema {
    const n = this.names(obj, namespace);
    const size = obj.size;
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) throw this.fail(`fixed "${n.fullName}" has invalid size`);
    const node: AvroFixedSchema = this.mark({ type: 'fixed', ...n, size });
    const logical = this.logical(obj, 'fixed', size);
    if (logical !== undefined) node.logicalType = logical;
    const aliases = this.aliases(obj);
    if (aliases !== undefined) node.aliases = aliases;
    this.named.set(n.fullName, node);
    return node;
  }

  /** Validate a logical type against its underlying type; invalid or unknown annotations are dropped. */
  private logical(obj: Record<string, unknown>, base: string, fixedSize: number | undefined): AvroLogicalType | undefined {
    const name = obj.logicalType;
    if (typeof name !== 'string') return undefined;
    switch (name) {
      case 'decimal': {
        if (base !== 'bytes' && base !== 'fixed') return undefined;
        const precision = obj.precision;
        const scale = obj.scale ?? 0;
        if (typeof precision !== 'number' || !Number.isInteger(precision) || precision <= 0) return undefined;
        if (typeof scale !== 'number' || !Number.isInteger(scale) || scale < 0 || scale > precision) return undefined;
        if (fixedSize !== undefined && precision > Math.floor(Math.log10(2) * (8 * fixedSize - 1))) return undefined;
        return { name, precision, scale };
      }
      case 'date':
      case 'time-millis':
        return base === 'int' ? { name } : undefined;
      case 'time-micros':
      case 'timestamp-millis':
      case 'timestamp-micros':
      case 'local-timestamp-millis':
      case 'local-timestamp-micros':
        return base === 'long' ? { name } : undefined;
      case 'uuid':
        return base === 'string' || (base === 'fixed' && fixedSize === 16) ? { name } : undefined;
      default:
        return undefined;
    }
  }
}

/** JSON text for a parsed schema: the original text when known, else {@link avroSchemaToJson}. */
export function avroSchemaJson(schema: AvroSchema): string {
  return originalJson.get(schema) ?? JSON.stringify(avroSchemaToJson(schema));
}
