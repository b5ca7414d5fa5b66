// Schema-evolving model sequences (table-model.ts `schemaEvolution`): the table starts with SCHEMA plus a
// nullable int column `cnt`; mid-sequence upserts evolve it (the write's `schema` option) by adding a nullable
// column `extra` and promoting `cnt` int → long → double. The model keeps each row as written and reads it
// as the schema of the instant read types it: rows written before `extra` read null, old `cnt` values promoted.
import type { Random } from './random.js';
import { SCHEMA, type Row } from './table-model-sequence.js';

/** The type of the promoted column `cnt`. */
export type CntType = 'int' | 'long' | 'double';

/** One schema of an evolving sequence. */
export interface SchemaStage {
  /** Whether the nullable string column `extra` exists. */
  extra: boolean;
  cnt: CntType;
}

/** The schema an evolving sequence's table is created with. */
export const FIRST_STAGE: SchemaStage = { extra: false, cnt: 'int' };

/**
 * The stages after {@link FIRST_STAGE}, in the order the sequence reaches them: `extra` added before the first
 * promotion or between the two, `cnt` int → long → double.
 */
export function evolutionPath(rnd: Random): SchemaStage[] {
  return rnd.chance(0.5)
    ? [{ extra: true, cnt: 'int' }, { extra: true, cnt: 'long' }, { extra: true, cnt: 'double' }]
    : [{ extra: false, cnt: 'long' }, { extra: true, cnt: 'long' }, { extra: true, cnt: 'double' }];
}

/** The Avro schema (JSON) of a stage: SCHEMA's fields, then `cnt`, then `extra` when present. */
export function stageSchema(stage: SchemaStage): object {
  const fields: object[] = [...SCHEMA.fields, { name: 'cnt', type: ['null', stage.cnt], default: null }];
  if (stage.extra) fields.push({ name: 'extra', type: ['null', 'string'], default: null });
  return { ...SCHEMA, fields };
}

/** The extra data columns a stage reads (after SCHEMA's). */
export const stageColumns = (stage: SchemaStage | undefined): string[] => (stage === undefined ? [] : stage.extra ? ['cnt', 'extra'] : ['cnt']);

/**
 * The row with the stage's columns filled (from `rnd`): `cnt` null at times, else a value only the stage's type
 * holds now and then (beyond 32 bits for long, a fraction for double), as the write passes it (long → bigint);
 * `extra` null at times, else text.
 */
export function withStage(row: Row, stage: SchemaStage, rnd: Random): Row {
  let cnt: number | bigint | null = null;
  if (!rnd.chance(0.2)) {
    const small = rnd.int(2000) - 1000;
    if (stage.cnt === 'int') cnt = small;
    else if (stage.cnt === 'long') cnt = rnd.chance(0.5) ? BigInt(small) * 2n ** 32n + 7n : BigInt(small);
    else cnt = rnd.chance(0.5) ? small + 0.5 : small * 2 ** 33;
  }
  const out: Row = { ...row, cnt };
  if (stage.extra) out.extra = rnd.chance(0.2) ? null : `x${rnd.int(100)}`;
  return out;
}

/**
 * A row's stage columns as a read with `stage`'s schema returns them, tagged with the JS type (so a promoted
 * value must come back as the new type): `cnt` as bigint for long, number for int and double; a column the row
 * was written without reads null.
 */
export function stageValues(r: Row, stage: SchemaStage | undefined): string[] {
  if (stage === undefined) return [];
  const cnt = r.cnt ?? null;
  const typed = cnt === null ? null : stage.cnt === 'long' ? BigInt(cnt) : Number(cnt);
  const out = [typed === null ? 'null' : `${typeof typed}:${String(typed)}`];
  if (stage.extra) out.push(r.extra === undefined || r.extra === null ? 'null' : `string:${r.extra}`);
  return out;
}

/** The same tags for values read back from the table. */
export function readValues(row: Record<string, unknown>, stage: SchemaStage | undefined): string[] {
  if (stage === undefined) return [];
  const tag = (v: unknown) => (v === null || v === undefined ? 'null' : `${typeof v}:${String(v)}`);
  return stage.extra ? [tag(row.cnt), tag(row.extra)] : [tag(row.cnt)];
}
