// The index definitions file of a v9 table with a metadata table (`.hoodie/.index_defs/index.json`, named by
// `hoodie.table.index.defs.path`): one entry per index (record_index, column_stats, secondary and expression
// indexes), as Hudi's Jackson pretty printer writes it (`"key" : value`, two-space indent, `[ ]` and `{ }` when
// empty). Pure: parse, build, drop entries.
import { corruptFile } from '../errors.js';

/** One index definition (HoodieIndexDefinition). */
export interface IndexDefinition {
  indexName: string;
  indexType: string;
  indexFunction: string;
  sourceFields: string[];
  indexOptions: Record<string, string>;
  version: string;
}

/** The record index's definition as Hudi 1.1 writes it for a non-partitioned record index. */
export function recordIndexDefinition(): IndexDefinition {
  return { indexName: 'record_index', indexType: 'record_index', indexFunction: '', sourceFields: [], indexOptions: { isPartitioned: 'false' }, version: 'V1' };
}

/** The column stats index's definition as Hudi 1.1 writes it: the indexed columns (meta columns first). */
export function columnStatsDefinition(columns: readonly string[]): IndexDefinition {
  return { indexName: 'column_stats', indexType: 'column_stats', indexFunction: 'column_stats', sourceFields: [...columns], indexOptions: {}, version: 'V2' };
}

/** Parse index.json: index name → definition. Not JSON of that shape → `CORRUPT_FILE`. */
export function parseIndexDefinitions(text: string, path: string): Map<string, IndexDefinition> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw corruptFile(`index definitions: not JSON (${err instanceof Error ? err.message : String(err)})`, path);
  }
  const defs = (json as { indexDefinitions?: unknown } | null)?.indexDefinitions;
  if (defs === null || typeof defs !== 'object') throw corruptFile('index definitions: no indexDefinitions object', path);
  return new Map(Object.entries(defs as Record<string, IndexDefinition>));
}

function pretty(value: unknown, indent: string): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) return value.length === 0 ? '[ ]' : `[ ${value.map((v) => pretty(v, inner)).join(', ')} ]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{ }';
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)} : ${pretty(v, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** index.json text for `definitions` (in the given order), as Hudi writes it. */
export function formatIndexDefinitions(definitions: Iterable<[string, IndexDefinition]>): string {
  return pretty({ indexDefinitions: Object.fromEntries(definitions) }, '');
}
