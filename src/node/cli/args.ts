// Command-line parsing for the `lakelet` CLI: a small option-spec parser (flags, valued and repeatable
// options, `--opt=value`, `--`) that turns every mistake into a one-line UsageError.

/** A bad command line: the CLI prints `lakelet: <message>` and exits with code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** How one option is spelled and what it takes. */
export interface OptionSpec {
  /** Long name without dashes (`as-of`). */
  name: string;
  /** Optional one-letter alias without the dash (`h`). */
  short?: string;
  /** `flag` takes no value; `value` takes one; `list` takes one per occurrence (repeatable). */
  kind: 'flag' | 'value' | 'list';
}

/** The `--help` / `-h` flag every command takes. */
export const HELP: OptionSpec = { name: 'help', short: 'h', kind: 'flag' };

/** The parsed command line of one command. */
export interface ParsedArgs {
  /** Positional arguments in order. */
  positionals: string[];
  /** Flags present (by long name). */
  flags: Set<string>;
  /** Values of `value` options (by long name). */
  values: Map<string, string>;
  /** Values of `list` options (by long name), in order. */
  lists: Map<string, string[]>;
}

/**
 * Parse `argv` against `specs`. `command` names the command in messages. Unknown options, missing
 * values, values given to flags and repeated single-valued options → {@link UsageError}.
 */
export function parseArgs(argv: readonly string[], specs: readonly OptionSpec[], command: string): ParsedArgs {
  const byLong = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short !== undefined).map((s) => [s.short as string, s]));
  const out: ParsedArgs = { positionals: [], flags: new Set(), values: new Map(), lists: new Map() };
  const where = command === '' ? '' : ` for ${command}`;
  const seeHelp = command === '' ? 'lakelet --help' : `lakelet ${command} --help`;
  let i = 0;
  while (i < argv.length) {
    const arg = argv[i++] as string;
    if (arg === '--') {
      out.positionals.push(...argv.slice(i));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      out.positionals.push(arg);
      continue;
    }
    let name: string;
    let inline: string | undefined;
    let spec: OptionSpec | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = eq < 0 ? arg : arg.slice(0, eq);
      inline = eq < 0 ? undefined : arg.slice(eq + 1);
      spec = byLong.get(name.slice(2));
    } else {
      name = arg.slice(0, 2);
      inline = arg.length > 2 ? arg.slice(2) : undefined;
      spec = byShort.get(arg.slice(1, 2));
    }
    if (!spec) throw new UsageError(`unknown option ${name}${where} (see ${seeHelp})`);
    const label = `--${spec.name}`;
    if (spec.kind === 'flag') {
      if (inline !== undefined) throw new UsageError(`option ${label} takes no value`);
      out.flags.add(spec.name);
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = argv[i];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) throw new UsageError(`option ${label} needs a value`);
      value = next;
      i++;
    }
    if (spec.kind === 'list') {
      const list = out.lists.get(spec.name) ?? [];
      list.push(value);
      out.lists.set(spec.name, list);
    } else {
      if (out.values.has(spec.name)) throw new UsageError(`option ${label} given more than once`);
      out.values.set(spec.name, value);
    }
  }
  return out;
}

/** Parse a whole number ≥ 0 given to `option`; anything else → {@link UsageError}. */
export function parseCount(text: string, option: string): number {
  const s = text.trim();
  if (!/^\d+$/.test(s) || !Number.isSafeInteger(Number(s))) throw new UsageError(`option ${option} needs a whole number ≥ 0, got ${JSON.stringify(text)}`);
  return Number(s);
}

/** Split a comma-separated column list (`a,b, c`); an empty list → {@link UsageError}. */
export function parseColumnList(text: string, option: string): string[] {
  const columns = text.split(',').map((c) => c.trim()).filter((c) => c !== '');
  if (columns.length === 0) throw new UsageError(`option ${option} needs at least one column name`);
  const seen = new Set<string>();
  for (const c of columns) {
    if (seen.has(c)) throw new UsageError(`option ${option} names column ${JSON.stringify(c)} twice`);
    seen.add(c);
  }
  return columns;
}

/**
 * An instant argument: an instant time of 14 or 17 digits, or `yyyyMMdd`, is passed on as text (the library
 * checks it is a real date); ISO-8601 dates and times (`2024-04-18`, `2024-04-18T17:35:51Z`, read as UTC without
 * a zone) become a Date. Digits of any other length are refused, never padded into another instant.
 */
export function parseInstantArg(text: string, option: string): string | Date {
  const s = text.trim();
  if (/^(\d{8}|\d{14}|\d{17})$/.test(s)) return s;
  if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(s)) {
    const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(s) && s.length > 10;
    const iso = s.length === 10 ? `${s}T00:00:00Z` : hasZone ? s.replace(' ', 'T') : `${s.replace(' ', 'T')}Z`;
    const d = new Date(iso);
    if (!Number.isNaN(d.getTime())) return d;
  }
  throw new UsageError(`option ${option} needs an instant time (yyyyMMddHHmmss or yyyyMMddHHmmssSSS, or yyyyMMdd) or an ISO-8601 date, got ${JSON.stringify(text)}`);
}

/**
 * The one positional argument of `command` (a table directory by default): none or more than one → `UsageError`
 * naming `<name>` and what it is.
 */
export function onePositional(positionals: readonly string[], command: string, name = 'dir', what = 'a table directory'): string {
  if (positionals.length === 0) throw new UsageError(`${command}: missing <${name}> (${what}; see lakelet ${command} --help)`);
  if (positionals.length > 1) throw new UsageError(`${command}: unexpected argument ${JSON.stringify(positionals[1])} (only one <${name}>)`);
  return positionals[0] as string;
}
