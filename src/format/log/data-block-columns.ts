// AVRO_DATA block content encoded from column vectors (a ColumnBatch) instead of row objects: each top-level
// field's compiled Avro writer runs over its vector, and a column with one value for every row (commit time,
// partition path, file name) is encoded once and its bytes copied per row. Same bytes as content.ts's row path.
import type { AvroRecordSchema } from '../avro/schema.js';
import { AvroWriter, compileAvroWriter, type DatumWriter } from '../avro/encoder.js';
import type { ColumnBatch } from '../parquet/column-batch.js';

/** How one top-level field is written per row. */
type FieldPlan =
  | { kind: 'bytes'; name: string; bytes: Uint8Array }
  | { kind: 'vector'; name: string; write: DatumWriter; vector: ArrayLike<unknown> | undefined; hasDefault: boolean };

/**
 * Encode AVRO_DATA block content (version 3) of `batch.length` records of `schema`: row `i`'s field `f` is
 * `constants[f]` when given, else `batch.columns[f][i]` (absent vector or `undefined`: the field's default, else
 * null). The bytes equal {@link encodeAvroDataBlockContent} over the same rows as objects, errors included: a row
 * that needs a field default, or whose value does not fit, is re-encoded through the row path.
 */
export function encodeAvroDataBlockColumns(schema: AvroRecordSchema, batch: ColumnBatch, constants: Readonly<Record<string, unknown>> = {}): Uint8Array {
  const plans = schema.fields.map((f): FieldPlan => {
    const write = compileAvroWriter(f.type);
    if (Object.prototype.hasOwnProperty.call(constants, f.name)) {
      const value = constants[f.name];
      const bytes = value === undefined && f.hasDefault ? undefined : tryEncode(write, value);
      if (bytes !== undefined) return { kind: 'bytes', name: f.name, bytes };
      return { kind: 'vector', name: f.name, write, vector: new Array<unknown>(batch.length).fill(value), hasDefault: f.hasDefault };
    }
    return { kind: 'vector', name: f.name, write, vector: batch.columns[f.name], hasDefault: f.hasDefault };
  });
  const writeRow = compileAvroWriter(schema);
  const row = (i: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const f of schema.fields) {
      if (Object.prototype.hasOwnProperty.call(constants, f.name)) out[f.name] = constants[f.name];
      else out[f.name] = batch.columns[f.name]?.[i];
    }
    return out;
  };
  const w = new AvroWriter(1024);
  w.writeInt32BE(3);
  w.writeInt32BE(batch.length);
  for (let i = 0; i < batch.length; i++) {
    const lengthAt = w.pos;
    w.writeInt32BE(0);
    if (!writeFields(w, plans, i)) {
      // A default to fill in, or a value the field's writer refused: the row path writes it (or throws its error).
      w.pos = lengthAt + 4;
      writeRow(w, row(i));
    }
    w.patchInt32BE(lengthAt, w.pos - lengthAt - 4);
  }
  return w.finish();
}

/** Write row `i`'s fields; false (with a partial datum written) when the row must take the row path. */
function writeFields(w: AvroWriter, plans: readonly FieldPlan[], i: number): boolean {
  for (const p of plans) {
    if (p.kind === 'bytes') {
      w.writeFixed(p.bytes);
      continue;
    }
    const v = p.vector?.[i];
    if (v === undefined && p.hasDefault) return false;
    try {
      p.write(w, v);
    } catch {
      return false;
    }
  }
  return true;
}

function tryEncode(write: DatumWriter, value: unknown): Uint8Array | undefined {
  const w = new AvroWriter(64);
  try {
    write(w, value);
  } catch {
    return undefined;
  }
  return w.finish();
}
