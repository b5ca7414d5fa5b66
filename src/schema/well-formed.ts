// Well-formed UTF-16: a lone surrogate cannot be encoded as UTF-8 (parquet and Avro strings), so a writer that
// stored one would read back U+FFFD instead. Writes find and refuse them.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The index of the first lone (unpaired) UTF-16 surrogate in `text`, or -1 when it is well formed. */
export function loneSurrogateIndex(text: string): number {
  const wellFormed = (text as { isWellFormed?: () => boolean }).isWellFormed;
  if (wellFormed !== undefined && wellFormed.call(text)) return -1;
  const m = LONE_SURROGATE.exec(text);
  return m === null ? -1 : m.index;
}

/** `holds a lone UTF-16 surrogate (\ud800) at index 3, which UTF-8 cannot store`, or undefined when well formed. */
export function loneSurrogateProblem(text: string): string | undefined {
  const at = loneSurrogateIndex(text);
  if (at < 0) return undefined;
  const code = text.charCodeAt(at).toString(16);
  return `holds a lone UTF-16 surrogate (\\u${code}) at index ${at}, which UTF-8 cannot store (it would read back as U+FFFD)`;
}
