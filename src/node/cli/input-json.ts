// JSON with exact numbers (numbers kept as source text until their type is known), and parsed JSON values
// typed by the table schema (long → bigint, decimal → text, base64 → bytes); shared by JSON lines and CSV.
import type { AvroSchema } from './input-rows.js';

/** A JSON number kept as its source text until its target type is known. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

const NUMBER_RE = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** A JSON integer's text: optional minus, no leading zeros. */
export const INTEGER_RE = /^-?(?:0|[1-9]\d*)$/;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
/** Parse one JSON text; numbers become {@link JsonNumber}. Errors are `SyntaxError`s naming the column. */
export function parseJson(text: string): unknown {
  let i = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at column ${i + 1}`);
  };
  const space = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const literal = (word: string, value: unknown): unknown => {
    if (text.startsWith(word, i)) {
      i += word.length;
      return value;
    }
    return fail(`unexpected ${describeAt(text, i)}`);
  };
  const string = (): string => {
    i++; // opening quote
    let out = '';
    let from = i;
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) fail('control character in a string');
      if (c !== 0x5c) {
        i++;
        continue;
      }
      out += text.slice(from, i);
      const e = text[i + 1];
      if (e === 'u') {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('bad \\u escape');
        out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else {
        const ch = e === undefined ? undefined : ESCAPES[e];
        if (ch === undefined) fail('bad escape');
        out += ch;
        i += 2;
      }
      from = i;
    }
    out += text.slice(from, i);
    i++;
    return out;
  };
  const value = (depth: number): unknown => {
    if (depth > 512) fail('nesting too deep');
    space();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      space();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        space();
        if (text[i] !== '"') fail(`expected a property name, got ${describeAt(text, i)}`);
        const key = string();
        space();
        if (text[i] !== ':') fail(`expected ':', got ${describeAt(text, i)}`);
        i++;
        // defineProperty: a "__proto__" key stays an own property, as with JSON.parse.
        Object.defineProperty(obj, key, { value: value(depth + 1), enumerable: true, writable: true, configurable: true });
        space();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return obj;
        } else fail(`expected ',' or '}', got ${describeAt(text, i)}`);
      }
    }
    if (c === '[') {
      i++;
      const arr: unknown[] = [];
      space();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value(depth + 1));
        space();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return arr;
        } else fail(`expected ',' or ']', got ${describeAt(text, i)}`);
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true', true);
    if (c === 'f') return literal('false', false);
    if (c === 'n') return literal('null', null);
    NUMBER_RE.lastIndex = i;
    const m = NUMBER_RE.exec(text);
    if (m === null) return fail(`unexpected ${describeAt(text, i)}`);
    i += m[0].length;
    return new JsonNumber(m[0]);
  };
  const out = value(0);
  space();
  if (i < text.length) fail(`unexpected ${describeAt(text, i)} after the value`);
  return out;
}

function describeAt(text: string, i: number): string {
  const c = text[i];
  return c === undefined ? 'end of input' : `character ${JSON.stringify(c)}`;
}

/** A JSON number without a target type: a safe integer → number, a bigger integer → bigint, else a double. */
export function plainNumber(n: JsonNumber): number | bigint {
  if (INTEGER_RE.test(n.text)) {
    const v = Number(n.text);
    return Number.isSafeInteger(v) ? v : BigInt(n.text);
  }
  return Number(n.text);
}

/** The non-null branch of a nullable union with one other branch, else the type itself. */
export function baseType(type: AvroSchema): { type: AvroSchema; nullable: boolean } {
  if (type.type !== 'union') return { type, nullable: type.type === 'null' };
  const others = type.branches.filter((b) => b.type !== 'null');
  const nullable = others.length < type.branches.length;
  return others.length === 1 ? { type: others[0] as AvroSchema, nullable } : { type, nullable };
}

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** `text` decoded as base64 when it is base64, else `text` unchanged (for the validator to name). */
export function fromBase64(text: string): Uint8Array | string {
  return BASE64_RE.test(text) ? new Uint8Array(Buffer.from(text, 'base64')) : text;
}

/** The texts `lakelet query` prints for the doubles JSON has no number for (lowercase keys). */
export const SPECIAL_DOUBLES: Record<string, number> = { nan: NaN, infinity: Infinity, '+infinity': Infinity, '-infinity': -Infinity };

/**
 * Turn a parsed JSON value into lakelet's value model, guided by `type` when known: numbers exactly (long →
 * bigint, decimal → its digits as text, int/float/double → number), digit strings into long/int (so the
 * output of `lakelet query`, which prints unsafe longs as strings, reads back), base64 text into bytes,
 * `"NaN"`/`"Infinity"`/`"-Infinity"` into float/double.
 * Values that do not fit are passed on unchanged for the write's validator to name.
 */
export function typedJson(value: unknown, type: AvroSchema | undefined): unknown {
  if (value === null) return null;
  if (type === undefined) {
    if (value instanceof JsonNumber) return plainNumber(value);
    if (Array.isArray(value)) return value.map((v) => typedJson(v, undefined));
    if (typeof value === 'object') return mapValues(value as Record<string, unknown>, () => undefined);
    return value;
  }
  const t = baseType(type).type;
  const logical = 'logicalType' in t ? t.logicalType?.name : undefined;
  if (value instanceof JsonNumber) {
    if (logical === 'decimal') return value.text;
    if (t.type === 'long' && logical === undefined) {
      if (INTEGER_RE.test(value.text)) return BigInt(value.text);
      const n = Number(value.text);
      return Number.isSafeInteger(n) ? BigInt(n) : n;
    }
    return t.type === 'union' ? plainNumber(value) : Number(value.text);
  }
  if (typeof value === 'string') {
    if (logical === undefined && (t.type === 'long' || t.type === 'int') && INTEGER_RE.test(value.trim())) {
      return t.type === 'long' ? BigInt(value.trim()) : Number(value.trim());
    }
    if ((t.type === 'bytes' || t.type === 'fixed') && logical !== 'decimal') return fromBase64(value);
    // JSON has no NaN or infinities: `lakelet query` prints them as "NaN", "Infinity", "-Infinity".
    if (t.type === 'float' || t.type === 'double') return SPECIAL_DOUBLES[value.trim().toLowerCase()] ?? value;
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => typedJson(v, t.type === 'array' ? t.items : undefined));
  if (typeof value === 'object') {
    if (t.type === 'record') return mapValues(value as Record<string, unknown>, (k) => t.fields.find((f) => f.name === k)?.type);
    if (t.type === 'map') return mapValues(value as Record<string, unknown>, () => t.values);
    return mapValues(value as Record<string, unknown>, () => undefined);
  }
  return value;
}

function mapValues(obj: Record<string, unknown>, typeOf: (key: string) => AvroSchema | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) Object.defineProperty(out, k, { value: typedJson(v, typeOf(k)), enumerable: true, writable: true, configurable: true });
  return out;
}
