// Row comparison for the golden fixture tests, following ../shared/fixtures/hudi-rs/expected/README.md:
// multiset match on every field of the expected row; floats by float32 value, decimals by scale.

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

/** Undefined when equal as multisets; otherwise a message saying what differs. */
export function compareRows(expected: Record<string, unknown>[], actual: Record<string, unknown>[], columns: ExpectedColumn[], metaFields: boolean): string | undefined {
  if (expected.length !== actual.length) return `expected ${expected.length} rows, got ${actual.length}: ${JSON.stringify(actual).slice(0, 600)}`;
  const types = new Map(columns.map((c) => [c.name, c.type]));
  const used = new Array<boolean>(actual.length).fill(false);
  for (const e of expected) {
    const fields = Object.keys(e).filter((f) => metaFields || !META.includes(f));
    const i = actual.findIndex((a, k) => !used[k] && fields.every((f) => f in a && fieldEqual(e[f], a[f], types.get(f))));
    if (i < 0) return `no match for expected row ${JSON.stringify(e)} among ${JSON.stringify(actual).slice(0, 800)}`;
    used[i] = true;
  }
  return undefined;
}
