// The schema-evolution rules a new write schema must satisfy against the table's current one (checkSchemaEvolution).
import { LakeletError } from '../errors.js';
import type { AvroRecordSchema, AvroSchema } from '../format/avro/schema.js';
import { avroTypeName, isNullable } from './avro-types.js';

const NUMERIC_RANK: Record<string, number> = { int: 0, long: 1, float: 2, double: 3 };

/**
 * Hudi's promotions between different primitive types (AvroSchemaCompatibility, Avro's schema resolution): the
 * new (reader) type → the old (writer) types whose values it reads without rewriting files.
 */
export const PROMOTIONS: Readonly<Record<string, readonly string[]>> = {
  long: ['int'],
  float: ['int', 'long'],
  double: ['int', 'long', 'float'],
  string: ['bytes', 'int', 'long', 'float', 'double'],
  bytes: ['string'],
};

/** Why values of `from` cannot be read as `to`, or undefined when they can. */
function incompatibility(from: AvroSchema, to: AvroSchema, path: string, seen: Set<string>): { path: string; reason: string } | undefined {
  const fromNull = isNullable(from);
  const toNull = isNullable(to);
  if (fromNull && !toNull) return { path, reason: 'changes from nullable to required' };
  const fromBranches = from.type === 'union' ? from.branches.filter((b) => b.type !== 'null') : [from];
  const toBranches = to.type === 'union' ? to.branches.filter((b) => b.type !== 'null') : [to];
  for (const fb of fromBranches) {
    let firstProblem: { path: string; reason: string } | undefined;
    let ok = false;
    for (const tb of toBranches) {
      const problem = branchIncompatibility(fb, tb, path, seen);
      if (problem === undefined) {
        ok = true;
        break;
      }
      firstProblem ??= problem;
    }
    if (!ok) return firstProblem ?? { path, reason: `changes type from ${avroTypeName(fb)} to ${avroTypeName(to)}` };
  }
  return undefined;
}

function branchIncompatibility(from: AvroSchema, to: AvroSchema, path: string, seen: Set<string>): { path: string; reason: string } | undefined {
  const change = { path, reason: `changes type from ${avroTypeName(from)} to ${avroTypeName(to)}` };
  const fl = 'logicalType' in from ? from.logicalType : undefined;
  const tl = 'logicalType' in to ? to.logicalType : undefined;
  if (fl?.name === 'decimal' || tl?.name === 'decimal') {
    // Hudi: both decimals over the same Avro type (a fixed keeps its size), no digit lost on either side of the point.
    if (fl?.name !== 'decimal' || tl?.name !== 'decimal' || from.type !== to.type) return change;
    if (from.type === 'fixed' && to.type === 'fixed' && from.size !== to.size) return { path, reason: `changes ${avroTypeName(from)} to ${avroTypeName(to)} (a fixed decimal keeps its size of ${from.size} bytes)` };
    if (tl.scale < fl.scale || tl.precision - tl.scale < fl.precision - fl.scale) return { path, reason: `changes ${avroTypeName(from)} to ${avroTypeName(to)} (lossy: neither the scale nor the integer digits may shrink)` };
    return undefined;
  }
  if ((fl?.name ?? '') !== (tl?.name ?? '')) return change;
  if (from.type !== to.type) {
    if (fl === undefined && PROMOTIONS[to.type]?.includes(from.type)) return undefined;
    if (from.type in NUMERIC_RANK && to.type in NUMERIC_RANK && fl === undefined) return { path, reason: `narrows ${from.type} to ${to.type}` };
    return change;
  }
  switch (from.type) {
    case 'fixed':
      return to.type === 'fixed' && to.size === from.size ? undefined : { path, reason: `changes ${avroTypeName(from)} to ${avroTypeName(to)}` };
    case 'enum': {
      if (to.type !== 'enum') return change;
      const removed = from.symbols.filter((s) => !to.symbols.includes(s));
      return removed.length === 0 ? undefined : { path, reason: `removes enum symbol(s) ${removed.join(', ')}` };
    }
    case 'array':
      return to.type === 'array' ? incompatibility(from.items, to.items, `${path}[]`, seen) : change;
    case 'map':
      return to.type === 'map' ? incompatibility(from.values, to.values, `${path}{}`, seen) : change;
    case 'record':
      return to.type === 'record' ? recordIncompatibility(from, to, path, seen) : change;
    default:
      return undefined;
  }
}

function recordIncompatibility(from: AvroRecordSchema, to: AvroRecordSchema, path: string, seen: Set<string>): { path: string; reason: string } | undefined {
  const key = `${from.fullName}->${to.fullName}@${path}`;
  if (seen.has(key)) return undefined;
  seen.add(key);
  const prefix = path === '' ? '' : `${path}.`;
  for (const f of from.fields) {
    const g = to.fields.find((x) => x.name === f.name);
    if (g === undefined) return { path: prefix + f.name, reason: 'is removed (Hudi refuses column drops by default)' };
    const problem = incompatibility(f.type, g.type, prefix + f.name, seen);
    if (problem !== undefined) return problem;
  }
  for (const g of to.fields) {
    if (from.fields.some((f) => f.name === g.name)) continue;
    if (!isNullable(g.type) && !g.hasDefault) return { path: prefix + g.name, reason: `is added as required ${avroTypeName(g.type)} without a default (existing rows have no value)` };
  }
  return undefined;
}

/**
 * Check that a Hudi table whose schema is `oldSchema` can take writes with `newSchema` (both without meta fields)
 * without rewriting its files, as Hudi's schema-on-write does (AvroSchemaCompatibility), throwing
 * `INVALID_ARGUMENT` naming the first offending (dotted) field and both types. Allowed: new fields that are
 * nullable or have a default (at any depth, in any position), field order changes, int → long/float/double,
 * long → float/double, float → double, int/long/float/double → string (Hudi 0.14+), bytes ↔ string, required →
 * nullable, new enum symbols, decimal widening (scale and integer digits may grow; a fixed decimal keeps its
 * size). Refused: removed fields, nullable → required, narrowing, int/long → decimal, string → numbers,
 * logical-type changes (date → string included, which Hudi's check lets through) and any other type change.
 */
export function checkSchemaEvolution(oldSchema: AvroRecordSchema, newSchema: AvroRecordSchema): void {
  const problem = recordIncompatibility(oldSchema, newSchema, '', new Set());
  if (problem !== undefined) {
    throw new LakeletError('INVALID_ARGUMENT', `schema evolution: field '${problem.path}' ${problem.reason}`, { field: problem.path });
  }
}
