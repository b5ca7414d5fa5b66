// The `validators` write option checked when options resolve (no validator runs here): each entry must be a
// function or a `{ name, validate }` object, so a typo fails before anything is written.
import { invalidArgument } from '../../errors.js';
import type { PreCommitValidator } from './validator.js';

export type { PreCommitValidator };

/** The `validators` option, validated: a list of functions or `{ name, validate }` objects (default none). */
export function checkValidators(validators: unknown): readonly PreCommitValidator[] {
  if (validators === undefined || validators === null) return [];
  if (!Array.isArray(validators)) throw invalidArgument(`write: validators must be a list of validators, got ${typeof validators}`, { field: 'validators' });
  validators.forEach((v: unknown, i) => {
    const ok = typeof v === 'function' || (typeof v === 'object' && v !== null && typeof (v as { name?: unknown }).name === 'string' && typeof (v as { validate?: unknown }).validate === 'function');
    if (!ok) throw invalidArgument(`write: validators[${i}] is neither a function nor a { name, validate } validator`, { field: `validators[${i}]` });
  });
  return validators as readonly PreCommitValidator[];
}
