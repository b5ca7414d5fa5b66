// The timeline picture's geometry (web/timeline-view.ts), pure: instant times read as milliseconds, marks
// placed by time across the axis, and marks of instants milliseconds apart pushed apart to stay clickable.
import { describe, expect, it } from 'vitest';
import { axisPositions, formatInstant, instantMillis } from '../../web/timeline-view.js';

describe('timeline axis', () => {
  it('reads instant times with and without milliseconds', () => {
    expect(instantMillis('20240418173550988')).toBe(Date.UTC(2024, 3, 18, 17, 35, 50, 988));
    expect(instantMillis('20240418173550')).toBe(Date.UTC(2024, 3, 18, 17, 35, 50));
    expect(formatInstant('20240418173550988')).toBe('2024-04-18 17:35:50.988');
  });

  it('places marks by time between the paddings', () => {
    const xs = axisPositions([0, 500, 1000], 236);
    expect(xs).toEqual([18, 118, 218]);
  });

  it('keeps marks at least 14 px apart, growing past the width when it must', () => {
    const xs = axisPositions([0, 1, 2, 3, 10_000], 300);
    expect(xs.slice(0, 4)).toEqual([18, 32, 46, 60]);
    expect(xs[4]).toBe(282);
    const crowded = axisPositions(Array.from({ length: 40 }, () => 5), 300);
    expect(crowded.at(-1)).toBe(18 + 39 * 14);
  });
});
