// Joda-Time style date patterns (`yyyy-MM-dd'T'HH:mm:ss.SSSZ`) for the timestamp key generator: compile a
// pattern once, then format epoch milliseconds or parse text with it. A documented subset of Joda's letters;
// zones come from time-zone.ts.
import { LakeletError } from '../errors.js';
import { formatOffset, parseTimeZone, type TimeZone } from './time-zone.js';

type Token = { kind: 'literal'; text: string } | { kind: 'field'; letter: string; count: number };

/** A compiled date pattern. */
export interface DatePattern {
  readonly pattern: string;
  /** Format a UTC instant (epoch milliseconds) as wall-clock time in `zone`. */
  format(utcMs: number, zone: TimeZone): string;
  /**
   * Parse `text` (the whole of it). The instant uses the offset in the text when there is one, else `zone`.
   * Returns undefined when the text does not match the pattern.
   */
  parse(text: string, zone: TimeZone): ParsedDateTime | undefined;
}

/** The result of {@link DatePattern.parse}: the instant and the offset the text carried, if any. */
export interface ParsedDateTime {
  utcMs: number;
  /** Offset parsed from the text (milliseconds), or undefined when the text had none. */
  offsetMs: number | undefined;
  /** Zone named in the text (`ZZZ`), if any. */
  zone: TimeZone | undefined;
}

const SUPPORTED = 'yYuMdDHhKkmsSaEZX';
const NUMERIC = new Set(['y', 'Y', 'u', 'd', 'D', 'H', 'h', 'K', 'k', 'm', 's', 'S']);
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  const pushLiteral = (text: string): void => {
    const last = tokens[tokens.length - 1];
    if (last?.kind === 'literal') last.text += text;
    else tokens.push({ kind: 'literal', text });
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i] as string;
    if (c === "'") {
      if (pattern[i + 1] === "'") {
        pushLiteral("'");
        i += 2;
        continue;
      }
      let j = i + 1;
      let text = '';
      for (;;) {
        if (j >= pattern.length) throw new LakeletError('INVALID_ARGUMENT', `keygen: unterminated quote in date pattern ${JSON.stringify(pattern)}`, { value: pattern });
        if (pattern[j] === "'") {
          if (pattern[j + 1] === "'") {
            text += "'";
            j += 2;
            continue;
          }
          break;
        }
        text += pattern[j];
        j++;
      }
      pushLiteral(text);
      i = j + 1;
    } else if (/[A-Za-z]/.test(c)) {
      if (!SUPPORTED.includes(c)) throw new LakeletError('INVALID_ARGUMENT', `keygen: date pattern letter '${c}' is not supported in ${JSON.stringify(pattern)} (supported: ${SUPPORTED.split('').join(' ')})`, { value: pattern });
      let j = i;
      while (pattern[j] === c) j++;
      tokens.push({ kind: 'field', letter: c, count: j - i });
      i = j;
    } else {
      pushLiteral(c);
      i++;
    }
  }
  return tokens;
}

const pad = (n: number, width: number): string => (n < 0 ? '-' + String(-n).padStart(width, '0') : String(n).padStart(width, '0'));

function formatField(t: { letter: string; count: number }, d: Date, offsetMs: number, zone: TimeZone): string {
  switch (t.letter) {
    case 'y': case 'Y': case 'u': {
      const y = d.getUTCFullYear();
      return t.count === 2 ? pad(((y % 100) + 100) % 100, 2) : pad(y, t.count);
    }
    case 'M': {
      const m = d.getUTCMonth();
      if (t.count >= 4) return MONTHS[m] as string;
      if (t.count === 3) return (MONTHS[m] as string).slice(0, 3);
      return pad(m + 1, t.count);
    }
    case 'd': return pad(d.getUTCDate(), t.count);
    case 'D': {
      const start = new Date(0);
      start.setUTCFullYear(d.getUTCFullYear(), 0, 1);
      return pad(Math.floor((d.getTime() - start.getTime()) / 86_400_000) + 1, t.count);
    }
    case 'H': return pad(d.getUTCHours(), t.count);
    case 'h': return pad(d.getUTCHours() % 12 === 0 ? 12 : d.getUTCHours() % 12, t.count);
    case 'K': return pad(d.getUTCHours() % 12, t.count);
    case 'k': return pad(d.getUTCHours() === 0 ? 24 : d.getUTCHours(), t.count);
    case 'm': return pad(d.getUTCMinutes(), t.count);
    case 's': return pad(d.getUTCSeconds(), t.count);
    case 'S': return String(d.getUTCMilliseconds()).padStart(3, '0').padEnd(t.count, '0').slice(0, t.count);
    case 'a': return d.getUTCHours() < 12 ? 'AM' : 'PM';
    case 'E': {
      const name = DAYS[d.getUTCDay()] as string;
      return t.count >= 4 ? name : name.slice(0, 3);
    }
    case 'Z':
      if (t.count >= 3) return zone.id;
      return formatOffset(offsetMs, t.count === 2);
    case 'X': {
      if (offsetMs === 0) return 'Z';
      if (t.count === 1 && offsetMs % 3_600_000 === 0) return formatOffset(offsetMs, false).slice(0, 3);
      return formatOffset(offsetMs, t.count >= 3);
    }
    default:
      return '';
  }
}

interface Fields {
  year: number; month: number; day: number; hour: number; minute: number; second: number; millis: number;
  pm: boolean | undefined; hour12: boolean; offsetMs: number | undefined; zone: TimeZone | undefined;
}

function matchName(text: string, pos: number, names: readonly string[]): { index: number; length: number } | undefined {
  const rest = text.slice(pos).toLowerCase();
  for (const full of [true, false]) {
    for (const [i, n] of names.entries()) {
      const name = (full ? n : n.slice(0, 3)).toLowerCase();
      if (rest.startsWith(name)) return { index: i, length: name.length };
    }
  }
  return undefined;
}

function parseOffset(text: string, pos: number, requireMinutes: boolean): { offsetMs: number; length: number } | undefined {
  if (text[pos] === 'Z' || text[pos] === 'z') return { offsetMs: 0, length: 1 };
  const m = /^([+-])(\d{2})(?::?(\d{2}))?/.exec(text.slice(pos));
  if (m === null || (requireMinutes && m[3] === undefined)) return undefined;
  const hours = Number(m[2]);
  const minutes = Number(m[3] ?? '0');
  if (hours > 23 || minutes > 59) return undefined;
  return { offsetMs: (hours * 60 + minutes) * 60_000 * (m[1] === '-' ? -1 : 1), length: m[0].length };
}

function twoDigitYear(yy: number): number {
  const pivot = new Date().getUTCFullYear() - 30;
  const low = pivot - 50;
  let year = Math.floor(low / 100) * 100 + yy;
  if (year < low) year += 100;
  return year;
}

const isNumeric = (t: Token): boolean =>
  t.kind === 'field' && (NUMERIC.has(t.letter) || (t.letter === 'M' && t.count < 3));

function parseTokens(tokens: Token[], text: string): Fields | undefined {
  const f: Fields = { year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, millis: 0, pm: undefined, hour12: false, offsetMs: undefined, zone: undefined };
  let pos = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.kind === 'literal') {
      if (text.slice(pos, pos + t.text.length).toLowerCase() !== t.text.toLowerCase()) return undefined;
      pos += t.text.length;
      continue;
    }
    if (isNumeric(t)) {
      const next = tokens[i + 1];
      const adjacent = next !== undefined && isNumeric(next);
      const isYear = t.letter === 'y' || t.letter === 'Y' || t.letter === 'u';
      let sign = 1;
      if (isYear && t.count !== 2 && (text[pos] === '-' || text[pos] === '+')) {
        sign = text[pos] === '-' ? -1 : 1;
        pos++;
      }
      const max = adjacent || (isYear && t.count === 2) ? t.count : isYear || t.letter === 'S' ? 9 : t.letter === 'D' ? 3 : Math.max(t.count, 2);
      const min = adjacent || (isYear && t.count === 2) ? t.count : 1;
      let end = pos;
      while (end < text.length && end - pos < max && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++;
      if (end - pos < min) return undefined;
      const digits = text.slice(pos, end);
      pos = end;
      const n = Number(digits) * sign;
      switch (t.letter) {
        case 'y': case 'Y': case 'u': f.year = t.count === 2 ? twoDigitYear(n) : n; break;
        case 'M': f.month = n; break;
        case 'd': f.day = n; break;
        case 'D': if (n < 1 || n > 366) return undefined; f.day = n; break;
        case 'H': f.hour = n; break;
        case 'k': f.hour = n === 24 ? 0 : n; break;
        case 'h': f.hour = n === 12 ? 0 : n; f.hour12 = true; if (n > 12) return undefined; break;
        case 'K': f.hour = n; f.hour12 = true; if (n > 11) return undefined; break;
        case 'm': f.minute = n; break;
        case 's': f.second = n; break;
        case 'S': f.millis = Number(digits.padEnd(3, '0').slice(0, 3)); break;
      }
      continue;
    }
    switch (t.letter) {
      case 'M': {
        const hit = matchName(text, pos, MONTHS);
        if (hit === undefined) return undefined;
        f.month = hit.index + 1;
        pos += hit.length;
        break;
      }
      case 'E': {
        const hit = matchName(text, pos, DAYS);
        if (hit === undefined) return undefined;
        pos += hit.length;
        break;
      }
      case 'a': {
        const s = text.slice(pos, pos + 2).toUpperCase();
        if (s !== 'AM' && s !== 'PM') return undefined;
        f.pm = s === 'PM';
        pos += 2;
        break;
      }
      case 'Z':
      case 'X': {
        if (t.letter === 'Z' && t.count >= 3) {
          const m = /^[A-Za-z0-9_/+:-]+/.exec(text.slice(pos));
          if (m === null) return undefined;
          try {
            f.zone = parseTimeZone(m[0]);
          } catch {
            return undefined;
          }
          pos += m[0].length;
          break;
        }
        const off = parseOffset(text, pos, t.letter === 'Z' || t.count >= 2);
        if (off === undefined) return undefined;
        f.offsetMs = off.offsetMs;
        pos += off.length;
        break;
      }
    }
  }
  return pos === text.length ? f : undefined;
}

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** Compile a Joda-Time style pattern. Unsupported letters or an unterminated quote → `INVALID_ARGUMENT`. */
export function compileDatePattern(pattern: string): DatePattern {
  const tokens = tokenize(pattern);
  const usesDayOfYear = tokens.some((t) => t.kind === 'field' && t.letter === 'D');
  return {
    pattern,
    format(utcMs, zone) {
      const offsetMs = zone.offsetAt(utcMs);
      const d = new Date(utcMs + offsetMs);
      return tokens.map((t) => (t.kind === 'literal' ? t.text : formatField(t, d, offsetMs, zone))).join('');
    },
    parse(text, zone) {
      const f = parseTokens(tokens, text);
      if (f === undefined) return undefined;
      if (f.hour12 && f.pm === true) f.hour += 12;
      if (usesDayOfYear) {
        if (f.day > (daysInMonth(f.year, 2) === 29 ? 366 : 365)) return undefined;
        const start = new Date(0);
        start.setUTCFullYear(f.year, 0, f.day);
        f.month = start.getUTCMonth() + 1;
        f.day = start.getUTCDate();
      }
      if (f.month < 1 || f.month > 12 || f.day < 1 || f.day > daysInMonth(f.year, f.month) || f.hour > 23 || f.minute > 59 || f.second > 59) return undefined;
      const local = new Date(0);
      local.setUTCFullYear(f.year, f.month - 1, f.day);
      local.setUTCHours(f.hour, f.minute, f.second, f.millis);
      const localMs = local.getTime();
      if (Number.isNaN(localMs)) return undefined;
      const effective = f.zone ?? zone;
      const utcMs = f.offsetMs !== undefined ? localMs - f.offsetMs : effective.localToUtc(localMs);
      return { utcMs, offsetMs: f.offsetMs, zone: f.zone };
    },
  };
}
