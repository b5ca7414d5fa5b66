// Numbers as Java's Double.toString and Float.toString write them ("5.0", "1.0E10", "1.0E-4"): the text Hudi
// (String.valueOf in its record rewrite) and Spark's cast give a float or double column promoted to string.

/** The shortest decimal digits and exponent of `v` (v = d.ddd × 10^exp) that read back as `v`. */
function shortestDigits(v: number, single: boolean): { digits: string; exponent: number } {
  let text = v.toExponential(); // a double's shortest round-trip digits
  if (single) {
    for (let p = 1; p <= 9; p++) {
      const candidate = v.toExponential(p - 1);
      if (Math.fround(Number(candidate)) === v) {
        text = candidate;
        break;
      }
    }
  }
  // One digit is not enough for Java, which writes at least two (d.d): the two-digit decimal closest to `v`.
  if (!/[1-9]/.test(text.split('e')[0]?.slice(1) ?? '')) text = v.toExponential(1);
  const [mantissa = '0', exp = '0'] = text.split('e');
  const digits = mantissa.replace('-', '').replace('.', '').replace(/0+$/, '') || '0';
  return { digits, exponent: Number(exp) };
}

function javaText(v: number, single: boolean): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  const sign = v < 0 ? '-' : '';
  const abs = Math.abs(v);
  const { digits, exponent } = shortestDigits(abs, single);
  if (abs >= 1e-3 && abs < 1e7) {
    if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
    const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
    return `${sign}${whole}.${digits.slice(exponent + 1) || '0'}`;
  }
  return `${sign}${digits[0]}.${digits.slice(1) || '0'}E${exponent}`;
}

/** `Double.toString(v)`: `5.0`, `0.001`, `1234567.5`, `1.0E7`, `1.0E-4`, `NaN`. */
export function javaDoubleText(v: number): string {
  return javaText(v, false);
}

/** `Float.toString(v)` of a float value (its shortest float digits): `1.1` for `Math.fround(1.1)`. */
export function javaFloatText(v: number): string {
  return javaText(v, true);
}
