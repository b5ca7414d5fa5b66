// Query filters: `[field, op, value]` triples (ops = != < <= > >= IN NOT IN, ANDed), their parsing from
// CLI text, evaluation against rows, and the min/max test used to prune partitions and row groups.
import { LakeletError } from '../errors.js';
import { compareValues, preciseMillis, type ComparableKind, type OrderingKind } from '../schema/compare.js';

/** A comparison operator. */
export type FilterOp = '=' | '!=' | '<' | '<=' | '>' | '>=' | 'IN' | 'NOT IN';
/** One filter: a field (dotted for nested struct fields), an operator and a value (an array for IN / NOT IN). */
export type Filter = readonly [field: string, op: FilterOp, value: unknown];

const OPS: readonly FilterOp[] = ['=', '!=', '<', '<=', '>', '>=', 'IN', 'NOT IN'];

/** A filter with its value(s) coerced to the column's kind. */
export interface CompiledFilter {
  field: string;
  path: string[];
  op: FilterOp;
  kind: ComparableKind;
  values: unknown[];
  /** Decimal scale when kind is `decimal`. */
  scale: number;
}

/**
 * Parse `"col op value"` (e.g. `city = san_francisco`, `fare >= 20`, `id IN 1,2,3`, `name != 'Bob'`).
 * Quotes around the value are removed. Malformed text → `INVALID_ARGUMENT`.
 */
export function parseFilter(text: string): Filter {
  const m = /^\s*([A-Za-z_][\w.]*)\s*(NOT\s+IN|IN|!=|<>|<=|>=|=|<|>)\s*(.*?)\s*$/i.exec(text);
  if (!m || m[3] === undefined || m[3] === '') {
    throw new LakeletError('INVALID_ARGUMENT', `filter: cannot parse ${JSON.stringify(text)} (expected "column op value", op one of ${OPS.join(' ')})`, { value: text });
  }
  let op = (m[2] as string).toUpperCase().replace(/\s+/g, ' ') as FilterOp | '<>';
  if (op === '<>') op = '!=';
  const unquote = (s: string) => s.trim().replace(/^'(.*)'$|^"(.*)"$/s, '$1$2');
  let raw = m[3];
  if (op === 'IN' || op === 'NOT IN') {
    raw = raw.replace(/^\((.*)\)$/s, '$1');
    return [m[1] as string, op, splitList(raw).map(unquote)];
  }
  return [m[1] as string, op, unquote(raw)];
}

/** Split an IN list on commas that are not inside single or double quotes. */
function splitList(s: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (const c of s) {
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === ',') {
      out.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  out.push(current);
  return out;
}

/** Validate a filter's shape; `INVALID_ARGUMENT` naming it otherwise. */
export function checkFilter(f: unknown): Filter {
  if (!Array.isArray(f) || f.length !== 3 || typeof f[0] !== 'string' || !OPS.includes(f[1] as FilterOp)) {
    throw new LakeletError('INVALID_ARGUMENT', `filter: expected [field, op, value] with op one of ${OPS.join(', ')}, got ${safeJson(f)}`, { value: f });
  }
  if ((f[1] === 'IN' || f[1] === 'NOT IN') && !Array.isArray(f[2])) {
    throw new LakeletError('INVALID_ARGUMENT', `filter: ${f[1]} needs an array value, got ${safeJson(f[2])}`, { field: f[0], value: f[2] });
  }
  return f as unknown as Filter;
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Coerce a filter value to a column kind; `INVALID_ARGUMENT` when it cannot be. */
function coerce(field: string, kind: ComparableKind, scale: number, v: unknown): unknown {
  const bad = () => new LakeletError('INVALID_ARGUMENT', `filter: value ${safeJson(v)} does not fit column ${field} (${kind})`, { field, value: v });
  if (v === null || v === undefined) return null;
  switch (kind) {
    case 'number': {
      const n = typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : Number(String(v).trim());
      if (Number.isNaN(n) && String(v).trim() !== 'NaN') throw bad();
      return n;
    }
    case 'bigint': {
      if (typeof v === 'bigint') return v;
      const s = String(v).trim();
      if (/^-?\d+$/.test(s)) return BigInt(s);
      const n = Number(s);
      if (Number.isNaN(n)) throw bad();
      return n; // a fractional bound: compared as a number
    }
    case 'decimal': {
      const s = String(v).trim();
      const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(s);
      if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw bad();
      // `num`: the bound as a double where that orders it exactly (schema/compare.ts decimalNumber)
      return { sign: m[1] === '-' ? -1n : 1n, int: m[2] || '0', frac: m[3] ?? '', ...(s.length <= 15 ? { num: Number(s) } : {}) };
    }
    case 'boolean': {
      if (typeof v === 'boolean') return v;
      const s = String(v).trim().toLowerCase();
      if (s === 'true') return true;
      if (s === 'false') return false;
      throw bad();
    }
    case 'date': {
      const t = v instanceof Date ? preciseMillis(v) : typeof v === 'number' ? v : Date.parse(String(v));
      if (Number.isNaN(t)) throw bad();
      return t;
    }
    default:
      return typeof v === 'string' ? v : String(v);
  }
}

/** Compile filters against the kinds of the table's columns (fields not in `kinds` compare as text). */
export function compileFilters(filters: readonly Filter[], kindOf: (field: string) => OrderingKind | undefined): CompiledFilter[] {
  return filters.map((raw) => {
    const [field, op, value] = checkFilter(raw);
    const { kind, scale } = kindOf(field) ?? { kind: 'string' as const, scale: 0 };
    const values = op === 'IN' || op === 'NOT IN' ? (value as unknown[]).map((v) => coerce(field, kind, scale, v)) : [coerce(field, kind, scale, value)];
    return { field, path: field.split('.'), op, kind, values, scale };
  });
}

function valueAt(row: Record<string, unknown>, f: CompiledFilter): unknown {
  if (f.field in row || f.path.length === 1) return row[f.field];
  let v: unknown = row;
  for (const p of f.path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[p];
  }
  return v;
}

/** Does one value satisfy a filter? (SQL semantics: a null never matches.) */
export function matchValue(f: CompiledFilter, v: unknown): boolean {
  if (v === null || v === undefined) return false;
  const cmp = (b: unknown) => compareValues(f.kind, f.scale, v, b);
  switch (f.op) {
    case '=': return cmp(f.values[0]) === 0;
    case '!=': { const c = cmp(f.values[0]); return c !== undefined && c !== 0; }
    case '<': { const c = cmp(f.values[0]); return c !== undefined && c < 0; }
    case '<=': { const c = cmp(f.values[0]); return c !== undefined && c <= 0; }
    case '>': { const c = cmp(f.values[0]); return c !== undefined && c > 0; }
    case '>=': { const c = cmp(f.values[0]); return c !== undefined && c >= 0; }
    case 'IN': return f.values.some((b) => cmp(b) === 0);
    case 'NOT IN': return f.values.every((b) => { const c = cmp(b); return c !== undefined && c !== 0; });
  }
}

/** Does a row satisfy every filter? */
export function matchRow(row: Record<string, unknown>, filters: readonly CompiledFilter[]): boolean {
  for (const f of filters) if (!matchValue(f, valueAt(row, f))) return false;
  return true;
}

/** Can any value in `[min, max]` satisfy the filter? Used to skip row groups; `true` when unsure. */
export function rangeMayMatch(f: CompiledFilter, min: unknown, max: unknown): boolean {
  const lo = (b: unknown) => compareValues(f.kind, f.scale, min, b);
  const hi = (b: unknown) => compareValues(f.kind, f.scale, max, b);
  const maybe = (c: number | undefined, test: (c: number) => boolean) => c === undefined || test(c);
  switch (f.op) {
    case '=': return maybe(lo(f.values[0]), (c) => c <= 0) && maybe(hi(f.values[0]), (c) => c >= 0);
    case '<': return maybe(lo(f.values[0]), (c) => c < 0);
    case '<=': return maybe(lo(f.values[0]), (c) => c <= 0);
    case '>': return maybe(hi(f.values[0]), (c) => c > 0);
    case '>=': return maybe(hi(f.values[0]), (c) => c >= 0);
    case 'IN': return f.values.some((b) => maybe(lo(b), (c) => c <= 0) && maybe(hi(b), (c) => c >= 0));
    case '!=': return !(lo(f.values[0]) === 0 && hi(f.values[0]) === 0);
    case 'NOT IN': return true;
  }
}
