// The write commands' `--validate <spec>` option: pre-commit checks named on the command line (`not-null:a,b`,
// `unique`, `row-count:MIN..MAX`, `expect:<filter>`), parsed into the library's built-in validators.
import { validators, type PreCommitValidator } from '../index.js';

const { expect, notNull, rowCount, unique } = validators;
import { UsageError, parseColumnList } from './args.js';

/** The help lines of `--validate` (for the write commands' usage text). */
export const VALIDATE_HELP = `  --validate <spec>      a pre-commit check, repeatable; when one fails the write
                         is rolled back (nothing committed) and the exit status
                         is 2. <spec> is one of:
                           not-null:<a[,b]>    every row has those columns set
                           unique              no record key the table already
                                               holds or the input repeats
                           row-count:MIN..MAX  rows of the table after the write
                                               (either bound may be left out)
                           expect:<filter>     every row satisfies the filter,
                                               e.g. expect:"fare >= 0"
`;

const BOUND = /^\d+$/;

/** Parse `MIN..MAX` (either side may be empty) or one number `N` (exactly N rows). */
function parseRowCount(text: string, spec: string): PreCommitValidator {
  const m = /^\s*(\d*)\s*\.\.\s*(\d*)\s*$/.exec(text) ?? (BOUND.test(text.trim()) ? [text, text.trim(), text.trim()] : null);
  const [min, max] = m ? [m[1], m[2]] : [undefined, undefined];
  if (!m || (min === '' && max === '')) throw new UsageError(`option --validate ${JSON.stringify(spec)}: row-count takes MIN..MAX (e.g. row-count:1..1000, row-count:..500), got ${JSON.stringify(text)}`);
  const bounds = { ...(min ? { min: Number(min) } : {}), ...(max ? { max: Number(max) } : {}) };
  if (bounds.min !== undefined && bounds.max !== undefined && bounds.min > bounds.max) throw new UsageError(`option --validate ${JSON.stringify(spec)}: row-count minimum ${bounds.min} is above the maximum ${bounds.max}`);
  return rowCount(bounds);
}

/** One `--validate` spec as a validator; a spec it does not know → {@link UsageError}. */
export function parseValidateSpec(spec: string): PreCommitValidator {
  const colon = spec.indexOf(':');
  const kind = (colon < 0 ? spec : spec.slice(0, colon)).trim().toLowerCase();
  const arg = colon < 0 ? undefined : spec.slice(colon + 1);
  const needs = (what: string): string => {
    if (arg === undefined || arg.trim() === '') throw new UsageError(`option --validate ${JSON.stringify(spec)}: ${kind} needs ${what} after "${kind}:"`);
    return arg;
  };
  switch (kind) {
    case 'not-null':
      return notNull(parseColumnList(needs('column names'), '--validate not-null'));
    case 'unique':
      if (arg !== undefined) throw new UsageError(`option --validate ${JSON.stringify(spec)}: unique takes no argument`);
      return unique();
    case 'row-count':
      return parseRowCount(needs('MIN..MAX'), spec);
    case 'expect':
      try {
        return expect(needs('a filter'));
      } catch (err) {
        if (err instanceof UsageError) throw err;
        throw new UsageError(`option --validate ${JSON.stringify(spec)}: ${(err as Error).message}`);
      }
    default:
      throw new UsageError(`option --validate: unknown check ${JSON.stringify(spec)} (one of not-null:<columns>, unique, row-count:MIN..MAX, expect:<filter>)`);
  }
}

/** Every `--validate` value, in order, as validators (none when the option is absent). */
export function parseValidateOptions(specs: readonly string[] | undefined): PreCommitValidator[] {
  return (specs ?? []).map(parseValidateSpec);
}
