// The demo's result grid and charts, as pure functions: which rows a scroll offset draws (the window of a
// virtualized 100,000-row grid), and the power-of-two size bins of the file-size chart.
import { describe, expect, it } from 'vitest';
import type { FileSlice } from '../../src/index.js';
import { sizeBins } from '../../web/charts.js';
import { ColumnarRows, visibleRange, VIEW_ROWS } from '../../web/query-grid.js';

describe('the result grid', () => {
  it('draws at most a window of rows at any scroll offset, the last rows at the end of the range', () => {
    const total = 100_000;
    expect(visibleRange(0, 5000, total)).toEqual([0, VIEW_ROWS]);
    expect(visibleRange(2500, 5000, total)).toEqual([Math.round((total - VIEW_ROWS) / 2), Math.round((total - VIEW_ROWS) / 2) + VIEW_ROWS]);
    expect(visibleRange(5000, 5000, total)).toEqual([total - VIEW_ROWS, total]);
    expect(visibleRange(9999, 5000, total)).toEqual([total - VIEW_ROWS, total]);
    expect(visibleRange(-5, 5000, total)).toEqual([0, VIEW_ROWS]);
    // Fewer rows than the window: all of them, wherever the container is scrolled.
    expect(visibleRange(0, 0, 3)).toEqual([0, 3]);
    expect(visibleRange(0, 0, 0)).toEqual([0, 0]);
  });

  it('keeps rows by column and gives one back by index', () => {
    const rows = new ColumnarRows(['a', 'b']);
    rows.push({ a: 1, b: 'x', c: 'dropped' });
    rows.push({ a: 2 });
    expect(rows.length).toBe(2);
    expect(rows.values).toEqual([[1, 2], ['x', null]]);
    expect(rows.row(1)).toEqual({ a: 2, b: null });
  });
});

describe('the file-size chart', () => {
  const file = (size: number) => ({ size }) as unknown as NonNullable<FileSlice['baseFile']>;
  const slice = (base: number | undefined, logs: number[]) => ({ baseFile: base === undefined ? undefined : file(base), logFiles: logs.map(file) }) as unknown as FileSlice;

  it('bins base and log files by power of two, from 1 KiB (or the smallest file) up to the small-file limit', () => {
    const bins = sizeBins([slice(3000, [600, 700]), slice(5000, []), slice(undefined, [2048])], 8192);
    expect(bins.exps).toEqual([9, 10, 11, 12, 13]);
    expect(bins.base).toEqual([0, 0, 1, 1, 0]);
    expect(bins.log).toEqual([2, 0, 1, 0, 0]);
    // A file above the limit widens the range to its bin.
    expect(sizeBins([slice(1 << 20, [])], 4096).exps.at(-1)).toBe(20);
  });
});
