// A parsed Avro schema written back as JSON: each named type in full at its first occurrence and by full name
// after it, so recursive schemas round-trip.
import type { AvroLogicalType, AvroSchema } from './schema-types.js';

/**
 * Serialize a parsed schema back to a JSON-compatible object. Each named type is written in full once
 * (at its first occurrence) and by full name afterwards, so recursive schemas round-trip.
 */
export function avroSchemaToJson(schema: AvroSchema): unknown {
  const written = new Set<string>();
  const walk = (node: AvroSchema): unknown => {
    switch (node.type) {
      case 'record':
      case 'enum':
      case 'fixed': {
        if (written.has(node.fullName)) return node.fullName;
        written.add(node.fullName);
        const out: Record<string, unknown> = { type: node.type, name: node.name };
        if (node.namespace !== '') out.namespace = node.namespace;
        if (node.aliases !== undefined) out.aliases = node.aliases;
        if (node.type === 'record') {
          if (node.doc !== undefined) out.doc = node.doc;
          out.fields = node.fields.map((f) => {
            const fo: Record<string, unknown> = { name: f.name, type: walk(f.type) };
            if (f.doc !== undefined) fo.doc = f.doc;
            if (f.hasDefault) fo.default = f.default;
            if (f.aliases !== undefined) fo.aliases = f.aliases;
            return fo;
          });
        } else if (node.type === 'enum') {
          out.symbols = node.symbols;
          if (node.default !== undefined) out.default = node.default;
        } else {
          out.size = node.size;
          if (node.logicalType !== undefined) Object.assign(out, logicalJson(node.logicalType));
        }
        return out;
      }
      case 'array':
        return { type: 'array', items: walk(node.items) };
      case 'map':
        return { type: 'map', values: walk(node.values) };
      case 'union':
        return node.branches.map(walk);
      default:
        return node.logicalType === undefined ? node.type : { type: node.type, ...logicalJson(node.logicalType) };
    }
  };
  return walk(schema);
}

function logicalJson(l: AvroLogicalType): Record<string, unknown> {
  return l.name === 'decimal' ? { logicalType: l.name, precision: l.precision, scale: l.scale } : { logicalType: l.name };
}
