// Row comparison for the golden fixture tests, following ../shared/fixtures/hudi-rs/expected/README.md:
// multiset match on every field of the expected row, and every row (expected and actual) has exactly the
// README's field set (the 3 meta fields when the reader returns them, then `columns`); floats by float32
// value, decimals by scale.

export interface ExpectedColumn { name: string; type: string }
export interface ExpectedQuery { kind: 'snapshot' | 'read_optimized' | 'incremental'; asOf?: string; from?: string; to?: string; rows: Record<string, unknown>[] }
export interface ExpectedFile {
  fixture: string;
  tableRoot: string;
  tableType: string;
  tableVersion: number;
  recordKeyFields: string[];
  partitionFields: string[];
  orderingField: string | null;
  metaFields: boolean;
  columns: ExpectedColumn[];
  completedInstants: { requested: string; action: string; completed: string | null }[];
  writeInstants: string[];
  queries: ExpectedQuery[];
}

const META = ['_hoodie_record_key', '_hoodie_partition_path', '_hoodie_commit_time'];

function normDecimal(v: unknown, scale: number): string | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const s = String(v);
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(s);
  if (!m) return undefined;
  const frac = (m[3] ?? '').padEnd(scale, '0');
  if (frac.length > scale && /[^0]/.test(frac.slice(scale))) return undefined;
  return `${m[1]}${m[2]}${scale > 0 ? '.' + frac.slice(0, scale) : ''}`;
}

function fieldEqual(expected: unknown, actual: unknown, type: string | undefined): boolean {
  if (expected === null) return actual === null;
  if (type?.startsWith('decimal')) {
    const scale = Number(/decimal\(\d+,(\d+)\)/.exec(type)?.[1] ?? 0);
    return normDecimal(expected, scale) !== undefined && normDecimal(expected, scale) === normDecimal(actual, scale);
  }
  if (type === 'float') return typeof actual === 'number' && Math.fround(actual) === Math.fround(expected as number);
  if (typeof expected === 'number') return typeof actual === 'number' && actual === expected;
  return actual === expected;
}

/**
 * The fields every row of a query must have, exactly (expected/README.md "Rows"): the 3 meta fields, then every
 * column in `columns`. For a table without meta fields the reader returns no `_hoodie_*` columns, so the rows
 * are compared on the data columns only.
 */
export function expectedFields(columns: ExpectedColumn[], metaFields: boolean): string[] {
  return [...(metaFields ? META : []), ...columns.map((c) => c.name)];
}

function keySetProblem(row: Record<string, unknown>, want: ReadonlySet<string>, what: string): string | undefined {
  const keys = Object.keys(row);
  const extra = keys.filter((k) => !want.has(k));
  const missing = [...want].filter((k) => !(k in row));
  if (extra.length === 0 && missing.length === 0) return undefined;
  return `${what} ${JSON.stringify(row).slice(0, 400)} has ${extra.length ? `extra fields ${extra.join(',')}` : ''}${extra.length && missing.length ? ' and ' : ''}${missing.length ? `missing fields ${missing.join(',')}` : ''}`;
}

/**
 * Undefined when equal as multisets with exactly the README's fields on every row; otherwise a message saying
 * what differs. Extra fields in an actual row (a leaked column) are a mismatch, so the reader must be asked
 * for exactly {@link expectedFields}.
 */
export function compareRows(expected: Record<string, unknown>[], actual: Record<string, unknown>[], columns: ExpectedColumn[], metaFields: boolean): string | undefined {
  if (expected.length !== actual.length) return `expected ${expected.length} rows, got ${actual.length}: ${JSON.stringify(actual).slice(0, 600)}`;
  const all = new Set([...META, ...columns.map((c) => c.name)]);
  const want = new Set(expectedFields(columns, metaFields));
  for (const e of expected) {
    const p = keySetProblem(e, all, 'expected row');
    if (p) return p;
  }
  for (const a of actual) {
    const p = keySetProblem(a, want, 'actual row');
    if (p) return p;
  }
  const types = new Map(columns.map((c) => [c.name, c.type]));
  const used = new Array<boolean>(actual.length).fill(false);
  for (const e of expected) {
    const i = actual.findIndex((a, k) => !used[k] && [...want].every((f) => fieldEqual(e[f], a[f], types.get(f))));
    if (i < 0) return `no match for expected row ${JSON.stringify(e)} among ${JSON.stringify(actual).slice(0, 800)}`;
    used[i] = true;
  }
  return undefined;
}
