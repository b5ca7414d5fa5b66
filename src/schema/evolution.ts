// The schema-evolution rules a new write schema must satisfy against the table's current one (checkSchemaEvolution).
import { LakeletError } from '../errors.js';
import type { AvroRecordSchema, AvroSchema } from '../format/avro/schema.js';
import { avroTypeName, isNullable } from './avro-types.js';

const NUMERIC_RANK: Record<string, number> = { int: 0, long: 1, float: 2, double: 3 };

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
    if (fl?.name !== 'decimal' || tl?.name !== 'decimal') return change;
    if (fl.scale !== tl.scale || tl.precision < fl.precision) return { path, reason: `changes ${avroTypeName(from)} to ${avroTypeName(to)} (the scale must stay and the precision may only grow)` };
    return undefined;
  }
  if ((fl?.name ?? '') !== (tl?.name ?? '')) return change;
  if (from.type in NUMERIC_RANK && to.type in NUMERIC_RANK && fl === undefined) {
    const a = NUMERIC_RANK[from.type] as number;
    const b = NUMERIC_RANK[to.type] as number;
    return b >= a ? undefined : { path, reason: `narrows ${from.type} to ${to.type}` };
  }
  if (from.type !== to.type) return change;
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
 * Check that a Hudi table whose schema is `oldSchema` can take writes with `newSchema` (both without meta fields),
 * throwing `INVALID_ARGUMENT` naming the first offending (dotted) field. Allowed: new fields that are nullable or
 * have a default, field order changes, int → long/float/double, long → float/double, float → double,
 * required → nullable, new enum symbols, decimal precision growth at the same scale. Refused: removed fields,
 * nullable → required, narrowing or any other type change (including string ↔ bytes and logical-type changes).
 */
export function checkSchemaEvolution(oldSchema: AvroRecordSchema, newSchema: AvroRecordSchema): void {
  const problem = recordIncompatibility(oldSchema, newSchema, '', new Set());
  if (problem !== undefined) {
    throw new LakeletError('INVALID_ARGUMENT', `schema evolution: field '${problem.path}' ${problem.reason}`, { field: problem.path });
  }
}
