// An oracle for lakelet's timeline Avro files that shares no code with lakelet: Hudi's own .avsc files
// (test/fixtures/hudi-avsc/, vendored verbatim) are resolved into a canonical form (named types expanded, Java
// string props and docs dropped), compared field by field with a container's embedded writer schema, and used
// to drive a small Avro binary decoder written here from the Avro specification.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A resolved schema: a primitive name, or a record / array / map / union / named reference. */
export type Canon =
  | string
  | { record: string; fields: CanonField[] }
  | { array: Canon }
  | { map: Canon }
  | { union: Canon[] }
  | { ref: string }
  | { unresolved: string };

/** One record field: name, resolved type and default (`hasDefault` false when the field has none). */
export interface CanonField {
  name: string;
  type: Canon;
  hasDefault: boolean;
  default?: unknown;
}

type Json = Record<string, unknown>;
const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);
const AVSC_DIR = fileURLToPath(new URL('../fixtures/hudi-avsc/', import.meta.url));

const fullName = (name: string, ns: string | undefined): string => (name.includes('.') || ns === undefined || ns === '' ? name : `${ns}.${name}`);

/** Parse `.avsc` text: Hudi's files carry C-style comments (Avro's Java parser allows them), JSON does not. */
export function parseAvsc(text: string): unknown {
  return JSON.parse(text.replace(/\/\*[\s\S]*?\*\//g, ''));
}

/** Every named type defined anywhere in `schemas`, by full name (namespaces inherited as Avro specifies). */
export function namedTypes(schemas: readonly unknown[]): Map<string, { json: Json; ns: string | undefined }> {
  const out = new Map<string, { json: Json; ns: string | undefined }>();
  const walk = (node: unknown, ns: string | undefined): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, ns));
    if (typeof node !== 'object' || node === null) return;
    const o = node as Json;
    if (o.type === 'record' || o.type === 'enum' || o.type === 'fixed') {
      const own = typeof o.namespace === 'string' ? o.namespace : ns;
      const name = fullName(o.name as string, own);
      if (!out.has(name)) out.set(name, { json: o, ns: name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : own });
      for (const f of (o.fields as Json[] | undefined) ?? []) walk(f.type, out.get(name)?.ns);
      return;
    }
    if (o.type === 'array') walk(o.items, ns);
    else if (o.type === 'map') walk(o.values, ns);
    else if (typeof o.type === 'object') walk(o.type, ns);
  };
  schemas.forEach((s) => walk(s, undefined));
  return out;
}

/** The vendored Hudi schemas: file name → parsed JSON. */
export function vendoredSchemas(): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const f of readdirSync(AVSC_DIR).filter((n) => n.endsWith('.avsc')).sort()) out.set(f, parseAvsc(readFileSync(AVSC_DIR + f, 'utf8')));
  return out;
}

/**
 * Resolve `root` against `types` into the canonical form. Every named reference is expanded where it is used
 * (so a schema that defines a type inline and one that refers to its own file compare equal); a type inside
 * its own expansion becomes `{ref}`; a name `types` does not define becomes `{unresolved}`.
 */
export function canonical(root: unknown, types: Map<string, { json: Json; ns: string | undefined }>): Canon {
  const go = (node: unknown, ns: string | undefined, stack: string[]): Canon => {
    if (typeof node === 'string') {
      if (PRIMITIVES.has(node)) return node;
      const name = fullName(node, ns);
      const def = types.get(name);
      if (stack.includes(name)) return { ref: name };
      if (def === undefined) return { unresolved: name };
      return go(def.json, def.ns, stack);
    }
    if (Array.isArray(node)) return { union: node.map((n) => go(n, ns, stack)) };
    const o = node as Json;
    if (typeof o.type === 'string' && PRIMITIVES.has(o.type)) return o.logicalType === undefined ? o.type : `${o.type}:${String(o.logicalType)}`;
    if (o.type === 'array') return { array: go(o.items, ns, stack) };
    if (o.type === 'map') return { map: go(o.values, ns, stack) };
    if (o.type === 'record') {
      const name = fullName(o.name as string, typeof o.namespace === 'string' ? o.namespace : ns);
      const inner = name.slice(0, Math.max(0, name.lastIndexOf('.'))) || undefined;
      const fields = (o.fields as Json[]).map((f): CanonField => ({
        name: f.name as string,
        type: go(f.type, inner, [...stack, name]),
        hasDefault: Object.hasOwn(f, 'default'),
        ...(Object.hasOwn(f, 'default') ? { default: f.default } : {}),
      }));
      return { record: name, fields };
    }
    if (typeof o.type === 'object' || (typeof o.type === 'string' && !PRIMITIVES.has(o.type))) return go(o.type, ns, stack);
    throw new Error(`hudi-avsc oracle: unsupported schema node ${JSON.stringify(o).slice(0, 80)}`);
  };
  return go(root, undefined, []);
}

/** Differences between an expected and an actual canonical schema, as `path: what` lines (empty when equal). */
export function schemaDiff(expected: Canon, actual: Canon, path = '$'): string[] {
  const show = (c: Canon): string => JSON.stringify(c).slice(0, 120);
  if (typeof expected === 'string' || typeof actual === 'string') return expected === actual ? [] : [`${path}: expected ${show(expected)}, got ${show(actual)}`];
  if ('record' in expected) {
    if (!('record' in actual)) return [`${path}: expected record ${expected.record}, got ${show(actual)}`];
    if (expected.record !== actual.record) return [`${path}: record name ${actual.record}, expected ${expected.record}`];
    const out: string[] = [];
    const names = (fs: CanonField[]): string => fs.map((f) => f.name).join(',');
    if (names(expected.fields) !== names(actual.fields)) out.push(`${path} (${expected.record}): fields [${names(actual.fields)}], expected [${names(expected.fields)}]`);
    expected.fields.forEach((ef, i) => {
      const af = actual.fields[i];
      if (af === undefined || af.name !== ef.name) return;
      const at = `${path}.${ef.name}`;
      if (ef.hasDefault !== af.hasDefault || JSON.stringify(ef.default) !== JSON.stringify(af.default)) {
        out.push(`${at}: default ${af.hasDefault ? JSON.stringify(af.default) : '(none)'}, expected ${ef.hasDefault ? JSON.stringify(ef.default) : '(none)'}`);
      }
      out.push(...schemaDiff(ef.type, af.type, at));
    });
    return out;
  }
  const key = Object.keys(expected)[0] as 'array' | 'map' | 'union' | 'ref' | 'unresolved';
  if (!(key in actual)) return [`${path}: expected ${show(expected)}, got ${show(actual)}`];
  if (key === 'ref' || key === 'unresolved') return JSON.stringify(expected) === JSON.stringify(actual) ? [] : [`${path}: expected ${show(expected)}, got ${show(actual)}`];
  if (key === 'union') {
    const e = (expected as { union: Canon[] }).union;
    const a = (actual as { union: Canon[] }).union;
    if (e.length !== a.length) return [`${path}: union of ${a.length}, expected ${e.length}`];
    return e.flatMap((b, i) => schemaDiff(b, a[i] as Canon, `${path}|${i}`));
  }
  return schemaDiff((expected as Record<string, Canon>)[key] as Canon, (actual as Record<string, Canon>)[key] as Canon, `${path}.<${key}>`);
}

/** Minimal Avro binary reader (spec §"Binary Encoding"): zig-zag varints, IEEE floats, length-prefixed bytes. */
class Bytes {
  pos = 0;
  constructor(readonly b: Uint8Array) {}
  long(): number {
    let n = 0n;
    let shift = 0n;
    for (;;) {
      const byte = this.b[this.pos++];
      if (byte === undefined) throw new Error('hudi-avsc oracle: varint past the end');
      n |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) break;
      shift += 7n;
    }
    return Number((n >> 1n) ^ -(n & 1n));
  }
  raw(n: number): Uint8Array {
    if (n < 0 || this.pos + n > this.b.length) throw new Error(`hudi-avsc oracle: ${n} bytes past the end`);
    const out = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  string(): string {
    return new TextDecoder('utf-8', { fatal: true }).decode(this.raw(this.long()));
  }
}

/** Decode one datum written with `schema`; `refs` resolves `{ref}` nodes (recursive types) by full name. */
function decodeDatum(schema: Canon, r: Bytes, refs: Map<string, Canon>): unknown {
  if (typeof schema === 'string') {
    const prim = schema.split(':')[0];
    switch (prim) {
      case 'null': return null;
      case 'boolean': return r.raw(1)[0] === 1;
      case 'int': case 'long': return r.long();
      case 'float': return new DataView(r.raw(4).slice().buffer).getFloat32(0, true);
      case 'double': return new DataView(r.raw(8).slice().buffer).getFloat64(0, true);
      case 'bytes': return r.raw(r.long()).slice();
      case 'string': return r.string();
      default: throw new Error(`hudi-avsc oracle: cannot decode ${schema}`);
    }
  }
  if ('record' in schema) {
    refs.set(schema.record, schema);
    return Object.fromEntries(schema.fields.map((f) => [f.name, decodeDatum(f.type, r, refs)]));
  }
  if ('union' in schema) {
    const i = r.long();
    const branch = schema.union[i];
    if (branch === undefined) throw new Error(`hudi-avsc oracle: union branch ${i} of ${schema.union.length}`);
    return decodeDatum(branch, r, refs);
  }
  if ('array' in schema || 'map' in schema) {
    const items: unknown[] = [];
    const entries: [string, unknown][] = [];
    for (let n = r.long(); n !== 0; n = r.long()) {
      if (n < 0) { n = -n; r.long(); }
      for (let k = 0; k < n; k++) {
        if ('array' in schema) items.push(decodeDatum(schema.array, r, refs));
        else entries.push([r.string(), decodeDatum(schema.map, r, refs)]);
      }
    }
    return 'array' in schema ? items : Object.fromEntries(entries);
  }
  if ('ref' in schema) {
    const def = refs.get(schema.ref);
    if (def === undefined) throw new Error(`hudi-avsc oracle: no definition for ${schema.ref}`);
    return decodeDatum(def, r, refs);
  }
  throw new Error(`hudi-avsc oracle: cannot decode unresolved ${schema.unresolved}`);
}

/** An Avro object container file, read per the spec: header metadata, sync marker, blocks (null codec only). */
export function readContainer(bytes: Uint8Array): { meta: Record<string, string>; blocks: { count: number; data: Uint8Array }[] } {
  const r = new Bytes(bytes);
  if (new TextDecoder().decode(r.raw(4)) !== 'Obj\u0001') throw new Error('hudi-avsc oracle: no Avro container magic');
  const meta: Record<string, string> = {};
  for (let n = r.long(); n !== 0; n = r.long()) {
    if (n < 0) { n = -n; r.long(); }
    for (let k = 0; k < n; k++) meta[r.string()] = new TextDecoder().decode(r.raw(r.long()));
  }
  const sync = r.raw(16).slice();
  const blocks: { count: number; data: Uint8Array }[] = [];
  while (r.pos < bytes.length) {
    const count = r.long();
    const data = r.raw(r.long());
    if (r.raw(16).some((b, i) => b !== sync[i])) throw new Error('hudi-avsc oracle: sync marker mismatch');
    blocks.push({ count, data });
  }
  return { meta, blocks };
}

/** Decode `count` consecutive datums of `schema` filling `data` exactly. */
export function decodeAll(schema: Canon, data: Uint8Array, count: number): unknown[] {
  const r = new Bytes(data);
  const out: unknown[] = [];
  for (let i = 0; i < count; i++) out.push(decodeDatum(schema, r, new Map()));
  if (r.pos !== data.length) throw new Error(`hudi-avsc oracle: ${data.length - r.pos} bytes left after ${count} datums`);
  return out;
}
