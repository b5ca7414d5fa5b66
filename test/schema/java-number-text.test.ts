// javaDoubleText / javaFloatText: the text Java's Double.toString and Float.toString give (what a float or double
// column promoted to string reads as in Hudi and Spark): plain between 10^-3 and 10^7, else computerized
// scientific notation, always a digit after the point, shortest round-trip digits.
import { describe, expect, test } from 'vitest';
import { javaDoubleText, javaFloatText } from '../../src/schema/java-number-text.js';

describe('javaDoubleText', () => {
  const cases: [number, string][] = [
    [1, '1.0'], [100, '100.0'], [-2.5, '-2.5'], [123.456, '123.456'], [1234567, '1234567.0'], [9999999.999, '9999999.999'],
    [1e7, '1.0E7'], [12345678.9, '1.23456789E7'], [1e10, '1.0E10'], [0.001, '0.001'], [0.0123, '0.0123'], [1e-4, '1.0E-4'],
    [-0.00012, '-1.2E-4'], [0.1 + 0.2, '0.30000000000000004'], [0, '0.0'], [-0, '-0.0'], [Number.NaN, 'NaN'],
    [Infinity, 'Infinity'], [-Infinity, '-Infinity'], [Number.MAX_VALUE, '1.7976931348623157E308'], [Number.MIN_VALUE, '4.9E-324'],
  ];
  for (const [v, text] of cases) test(`${v} → ${text}`, () => expect(javaDoubleText(v)).toBe(text));
});

describe('javaFloatText', () => {
  const cases: [number, string][] = [
    [1.1, '1.1'], [0.1, '0.1'], [100, '100.0'], [16777216, '1.6777216E7'], [1e-5, '1.0E-5'], [3.4028234663852886e38, '3.4028235E38'],
    [1.401298464324817e-45, '1.4E-45'], [-0.5, '-0.5'], [1234.5678, '1234.5677'],
  ];
  for (const [v, text] of cases) test(`float ${v} → ${text}`, () => expect(javaFloatText(Math.fround(v))).toBe(text));
});
