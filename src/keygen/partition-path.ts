// Partition path values: Hudi's escaping (Hive `escapePathName`, used when urlencode is on), the null/empty marker
// `__HIVE_DEFAULT_PARTITION__`, and lakelet's safety escaping that keeps every path inside the table root.
import { LakeletError } from '../errors.js';

/** The partition value Hudi writes for a null or empty field value. */
export const DEFAULT_PARTITION_PATH = '__HIVE_DEFAULT_PARTITION__';

// Characters Hive/Hudi escape in partition values: controls, " # % ' * / : = ? \ DEL { [ ] ^
const HIVE_ESCAPED = new Set<number>([
  ...Array.from({ length: 32 }, (_, i) => i),
  ...Array.from('"#%\'*/:=?\\\u007f{[]^', (c) => c.charCodeAt(0)),
]);

const hex = (code: number): string => '%' + code.toString(16).toUpperCase().padStart(2, '0');

/**
 * Hudi's `PartitionPathEncodeUtils.escapePathName` (from Hive's `FileUtils`): every character of the set
 * controls, `"`, `#`, `%`, `'`, `*`, slash, `:`, `=`, `?`, backslash, DEL, `{`, `[`, `]`, `^` becomes `%XX` (upper-case
 * hex); other characters (including non-ASCII) stay. An empty value becomes {@link DEFAULT_PARTITION_PATH}.
 */
export function escapePathName(value: string): string {
  if (value === '') return DEFAULT_PARTITION_PATH;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    out += HIVE_ESCAPED.has(code) ? hex(code) : value[i];
  }
  return out;
}

/** The inverse of {@link escapePathName} (`%XX` → the character; malformed escapes stay as they are). */
export function unescapePathName(path: string): string {
  return path.replace(/%([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/**
 * `hoodie.properties` key lakelet adds to the partitioned tables it creates (`true`): every partition value in
 * their paths went through {@link encodePartitionValue}, so every `%` in a segment starts an escape and readers
 * decode them. Tables without it (Spark's, or lakelet's from before the key) may hold values Hudi wrote raw,
 * where a `%` is a literal. Hudi ignores keys it does not know.
 */
export const ESCAPED_PARTITION_PATH_PROPERTY = 'lakelet.partition.path.escaped';

/** Characters escaped even when urlencode is off: `/`, `\`, `%`, controls (0x00-0x1F) and DEL. */
const isUnsafeChar = (code: number): boolean => code < 32 || code === 0x7f || code === 0x2f || code === 0x5c || code === 0x25;

/**
 * One partition value as it appears in the path, before the hive-style `field=` prefix.
 * - `urlEncode` → Hudi's {@link escapePathName}.
 * - Always (lakelet deviation from Hudi, which writes such values raw): `/`, `\`, `%`, control characters and DEL
 *   are percent-encoded, so a value can never add directory levels or smuggle an escape that a reader decodes.
 * - When `leadingSegment` (plain style: the value starts the path segment), a leading `.` becomes `%2E`, so the
 *   value can neither be `.`/`..` nor create a hidden directory (`.hoodie`). Hive style needs no such change:
 *   the segment starts with the field name.
 * Null/empty values must be replaced by {@link DEFAULT_PARTITION_PATH} before calling this.
 */
export function encodePartitionValue(value: string, urlEncode: boolean, leadingSegment: boolean): string {
  let out = urlEncode ? escapePathName(value) : '';
  if (!urlEncode) {
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      out += isUnsafeChar(code) ? hex(code) : value[i];
    }
  }
  if (leadingSegment && out.startsWith('.')) out = '%2E' + out.slice(1);
  return out;
}

/** The longest file or directory name (UTF-8 bytes) common file systems and object stores take. */
export const MAX_SEGMENT_BYTES = 255;

const utf8 = new TextEncoder();

/** Why `segment` is not a safe directory name, or undefined when it is. */
function segmentProblem(segment: string): string | undefined {
  if (segment === '') return 'an empty segment';
  // A UTF-8 character takes at most 3 bytes per UTF-16 unit, so short segments need no encoding to be measured.
  const bytes = segment.length * 3 <= MAX_SEGMENT_BYTES ? 0 : utf8.encode(segment).length;
  if (bytes > MAX_SEGMENT_BYTES) {
    const shown = segment.length > 64 ? `${JSON.stringify(segment.slice(0, 64))}…` : JSON.stringify(segment);
    return `a segment ${shown} of ${bytes} bytes in UTF-8 (a file name takes at most ${MAX_SEGMENT_BYTES})`;
  }
  if (segment === '.' || segment === '..') return `the segment ${JSON.stringify(segment)}`;
  if (segment.startsWith('.')) return `a hidden segment ${JSON.stringify(segment)}`;
  for (let i = 0; i < segment.length; i++) {
    const code = segment.charCodeAt(i);
    if (code < 32 || code === 0x7f || code === 0x5c) return `a control character or backslash in ${JSON.stringify(segment)}`;
  }
  return undefined;
}

/** True when `path` is `""` (non-partitioned) or `/`-separated segments that are all safe directory names. */
export function isSafePartitionPath(path: string): boolean {
  return path === '' || path.split('/').every((s) => segmentProblem(s) === undefined);
}

/**
 * Throw `INVALID_ARGUMENT` unless {@link isSafePartitionPath}: no empty, `.`, `..` or dot-led segments, no
 * backslashes or control characters. The last line of defence before a partition path touches storage.
 */
export function assertSafePartitionPath(path: string, context: { field?: string; value?: unknown } = {}): string {
  if (path === '') return path;
  for (const segment of path.split('/')) {
    const problem = segmentProblem(segment);
    if (problem === undefined) continue;
    const shown = path.length > 100 ? `${JSON.stringify(path.slice(0, 100))}…` : JSON.stringify(path);
    throw new LakeletError('INVALID_ARGUMENT', `keygen: partition path ${shown} has ${problem}`, { ...context, path });
  }
  return path;
}
