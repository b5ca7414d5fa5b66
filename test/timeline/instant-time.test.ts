// Instant times: UTC yyyyMMddHHmmssSSS formatting, parsing of 17- and 14-digit times, and strictly
// increasing generation when the clock stalls or goes backwards (hudi-format.md §3.1).
import { describe, expect, it } from 'vitest';
import { LakeletError } from '../../src/errors.js';
import { formatInstantTime, nextInstantTime, parseInstantTime } from '../../src/timeline/instant-time.js';

const code = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (err) {
    return err instanceof LakeletError ? err.code : 'not a LakeletError';
  }
  return undefined;
};

describe('formatInstantTime', () => {
  it('formats in UTC with millisecond precision and zero padding', () => {
    expect(formatInstantTime(new Date('2024-04-18T22:35:50.988Z'))).toBe('20240418223550988');
    expect(formatInstantTime(new Date('2025-01-02T03:04:05.006Z'))).toBe('20250102030405006');
    expect(formatInstantTime(new Date(0))).toBe('19700101000000000');
  });

  it('rejects invalid dates', () => {
    expect(code(() => formatInstantTime(new Date(Number.NaN)))).toBe('INVALID_ARGUMENT');
    expect(code(() => formatInstantTime(new Date('+010000-01-01T00:00:00Z')))).toBe('INVALID_ARGUMENT');
  });
});

describe('parseInstantTime', () => {
  it('parses 17-digit and legacy 14-digit times as UTC', () => {
    expect(parseInstantTime('20240418173550988').toISOString()).toBe('2024-04-18T17:35:50.988Z');
    expect(parseInstantTime('20240418173550').toISOString()).toBe('2024-04-18T17:35:50.000Z');
  });

  it('round-trips with formatInstantTime', () => {
    for (const iso of ['2000-02-29T23:59:59.999Z', '1999-12-31T00:00:00.000Z', '2030-07-15T12:34:56.789Z']) {
      expect(parseInstantTime(formatInstantTime(new Date(iso))).toISOString()).toBe(iso);
    }
  });

  it('rejects other lengths, non-digits and impossible calendar times', () => {
    for (const bad of ['2024041817355098', '202404181735509880', '2024-04-18', '20241318000000000', '20240230000000000', '20240418246000000', '']) {
      expect(code(() => parseInstantTime(bad))).toBe('INVALID_ARGUMENT');
    }
  });
});

describe('nextInstantTime', () => {
  const now = new Date('2025-03-31T03:06:42.808Z');

  it('uses the clock when there is no previous instant or the clock is ahead', () => {
    expect(nextInstantTime(undefined, now)).toBe('20250331030642808');
    expect(nextInstantTime('20250331030642807', now)).toBe('20250331030642808');
    expect(nextInstantTime('00000000000000', now)).toBe('20250331030642808');
  });

  it('bumps by one millisecond when the clock is not ahead', () => {
    expect(nextInstantTime('20250331030642808', now)).toBe('20250331030642809');
    expect(nextInstantTime('20260101000000000', now)).toBe('20260101000000001');
    expect(nextInstantTime('20241231235959999', new Date('2024-12-31T23:59:59.000Z'))).toBe('20250101000000000');
  });

  it('treats a 14-digit previous instant as its millisecond 000', () => {
    expect(nextInstantTime('20250331030642', new Date('2025-03-31T03:06:42.000Z'))).toBe('20250331030642001');
    expect(nextInstantTime('20250331030642', now)).toBe('20250331030642808');
  });

  it('is strictly increasing over a stalled clock', () => {
    let t: string | undefined;
    const seen: string[] = [];
    for (let i = 0; i < 50; i++) seen.push((t = nextInstantTime(t, now)));
    expect(new Set(seen).size).toBe(50);
    expect([...seen].sort()).toEqual(seen);
  });

  it('uses the real clock by default and rejects a malformed previous instant', () => {
    expect(nextInstantTime(undefined)).toMatch(/^\d{17}$/);
    expect(code(() => nextInstantTime('2025', now))).toBe('INVALID_ARGUMENT');
  });
});
