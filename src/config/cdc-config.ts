// Change-data-capture table config (HoodieTableConfig CDC_ENABLED / CDC_SUPPLEMENTAL_LOGGING_MODE, since
// Hudi 0.13): whether writers log `.cdc` files, and what those hold. Mode names as Hudi spells them in each era,
// parsed case-insensitively. Pure.
import { LakeletError } from '../errors.js';

/** `hoodie.table.cdc.enabled`. */
export const CDC_ENABLED_PROPERTY = 'hoodie.table.cdc.enabled';
/** `hoodie.table.cdc.supplemental.logging.mode`. */
export const CDC_LOGGING_MODE_PROPERTY = 'hoodie.table.cdc.supplemental.logging.mode';

/**
 * What a `.cdc` block stores (Hudi's `HoodieCDCSupplementalLoggingMode`): `OP_KEY_ONLY` the op and record key,
 * `DATA_BEFORE` also the before-image, `DATA_BEFORE_AFTER` (Hudi's default) op, commit time and both images.
 */
export type CdcSupplementalLoggingMode = 'OP_KEY_ONLY' | 'DATA_BEFORE' | 'DATA_BEFORE_AFTER';

/**
 * A spelling (upper-cased) as the current enum name: 0.14+ names, 0.13's lower-case values (`op_key_only`,
 * `data_before`, `data_before_after`), the earlier enum's (`OP_KEY`, `WITH_BEFORE`, `WITH_BEFORE_AFTER`, values
 * `cdc_op_key`, `cdc_data_before`, `cdc_data_before_after`) and RFC-51's `KEY_OP`; undefined for anything else.
 */
function normalize(text: string): CdcSupplementalLoggingMode | undefined {
  const t = text.trim().toUpperCase().replace(/^CDC_/, '').replace(/^WITH_/, 'DATA_');
  if (t === 'OP_KEY' || t === 'KEY_OP' || t === 'OP_KEY_ONLY') return 'OP_KEY_ONLY';
  return t === 'DATA_BEFORE' || t === 'DATA_BEFORE_AFTER' ? t : undefined;
}

/** Parse a supplemental logging mode in any of Hudi's spellings (any case); an unknown one → `UNSUPPORTED`. */
export function parseCdcLoggingMode(text: string): CdcSupplementalLoggingMode {
  const mode = normalize(text);
  if (!mode) throw new LakeletError('UNSUPPORTED', `config: unknown ${CDC_LOGGING_MODE_PROPERTY} ${JSON.stringify(text)} (expected OP_KEY_ONLY, DATA_BEFORE or DATA_BEFORE_AFTER)`, { field: CDC_LOGGING_MODE_PROPERTY, value: text });
  return mode;
}

/**
 * The table's CDC logging mode, or undefined when `hoodie.table.cdc.enabled` is not `true`. An absent or empty
 * mode is Hudi's default, `DATA_BEFORE_AFTER`; an unknown one → `UNSUPPORTED`.
 */
export function cdcLoggingModeOf(properties: ReadonlyMap<string, string>): CdcSupplementalLoggingMode | undefined {
  if ((properties.get(CDC_ENABLED_PROPERTY) ?? '').trim().toLowerCase() !== 'true') return undefined;
  const text = properties.get(CDC_LOGGING_MODE_PROPERTY) ?? '';
  return text.trim() === '' ? 'DATA_BEFORE_AFTER' : parseCdcLoggingMode(text);
}

/** Is `text` a supplemental logging mode in one of Hudi's spellings? */
export function isKnownCdcLoggingMode(text: string): boolean {
  return normalize(text) !== undefined;
}
