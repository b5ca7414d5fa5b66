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

/** Every spelling Hudi used, upper-cased: 0.14+ enum names, 0.13's lower-case values, the earlier draft's and RFC-51's. */
const SPELLINGS: ReadonlyMap<string, CdcSupplementalLoggingMode> = new Map([
  ['OP_KEY_ONLY', 'OP_KEY_ONLY'], ['OP_KEY', 'OP_KEY_ONLY'], ['KEY_OP', 'OP_KEY_ONLY'], ['CDC_OP_KEY', 'OP_KEY_ONLY'],
  ['DATA_BEFORE', 'DATA_BEFORE'], ['WITH_BEFORE', 'DATA_BEFORE'], ['CDC_DATA_BEFORE', 'DATA_BEFORE'],
  ['DATA_BEFORE_AFTER', 'DATA_BEFORE_AFTER'], ['WITH_BEFORE_AFTER', 'DATA_BEFORE_AFTER'], ['CDC_DATA_BEFORE_AFTER', 'DATA_BEFORE_AFTER'],
]);

/** Parse a supplemental logging mode in any of Hudi's spellings (any case); an unknown one → `UNSUPPORTED`. */
export function parseCdcLoggingMode(text: string): CdcSupplementalLoggingMode {
  const mode = SPELLINGS.get(text.trim().toUpperCase());
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
  return SPELLINGS.has(text.trim().toUpperCase());
}
