// Java Properties text (hoodie.properties, .hoodie_partition_metadata): parsing every java.util.Properties
// rule — separators, escapes, unicode, continuation lines, comments — and formatting that round-trips.
import { describe, expect, it } from 'vitest';
import { formatProperties, parseProperties } from '../../src/config/properties.js';

const parse = (text: string) => Object.fromEntries(parseProperties(text));

describe('parseProperties', () => {
  it('reads key=value, key:value and key value, trimming whitespace around the separator', () => {
    expect(parse('a=1\nb:2\nc 3\nd = 4\ne\t:\t5\n  f=6\ng   =   spaced value  ')).toEqual({
      a: '1', b: '2', c: '3', d: '4', e: '5', f: '6', g: 'spaced value  ',
    });
  });

  it('skips # and ! comments and blank lines, including indented ones', () => {
    expect(parse('#Properties saved on 2024-04-18T22:35:50.000Z\n#Thu Apr 18 17:35:50 CDT 2024\n\n   \n  # indented\n!bang\nk=v\n')).toEqual({ k: 'v' });
  });

  it('accepts \\n, \\r\\n and \\r line ends', () => {
    expect(parse('a=1\r\nb=2\rc=3\n')).toEqual({ a: '1', b: '2', c: '3' });
  });

  it('unescapes \\: \\= \\\\ \\t \\n \\r \\f in values (Hudi stores schemas with \\:)', () => {
    const text = 'hoodie.table.create.schema={"type"\\:"record","name"\\:"r"}\nx=a\\=b\\\\c\\td\\ne\\rf\\fg\n';
    expect(parse(text)).toEqual({
      'hoodie.table.create.schema': '{"type":"record","name":"r"}',
      x: 'a=b\\c\td\ne\rf\fg',
    });
  });

  it('unescapes separators and spaces inside keys', () => {
    expect(parse('a\\=b=1\nc\\:d:2\ne\\ f 3\n')).toEqual({ 'a=b': '1', 'c:d': '2', 'e f': '3' });
  });

  it('decodes \\uXXXX escapes (either case of hex digits, surrogate pairs)', () => {
    expect(parse('name=caf\\u00e9 \\u00C9t\\u00e9\nemoji=\\uD83D\\uDE00\n')).toEqual({ name: 'café Été', emoji: '😀' });
  });

  it('drops a backslash before an ordinary character', () => {
    expect(parse('k=\\a\\b\\#c\n')).toEqual({ k: 'ab#c' });
  });

  it('joins continuation lines, dropping the leading whitespace of the next line', () => {
    expect(parse('list=one,\\\n    two,\\\n\tthree\nnext=x\n')).toEqual({ list: 'one,two,three', next: 'x' });
  });

  it('an even number of trailing backslashes is an escaped backslash, not a continuation', () => {
    expect(parse('path=C:\\\\dir\\\\\nnext=1\n')).toEqual({ path: 'C:\\dir\\', next: '1' });
  });

  it('a continued line may start with # without becoming a comment', () => {
    expect(parse('k=a\\\n#b\n')).toEqual({ k: 'a#b' });
  });

  it('a comment ending in a backslash does not swallow the next line', () => {
    expect(parse('# comment \\\nk=v\n')).toEqual({ k: 'v' });
  });

  it('a key without a value maps to the empty string; later duplicates win', () => {
    expect(parse('alone\nempty=\nk=1\nk=2\n')).toEqual({ alone: '', empty: '', k: '2' });
  });

  it('keeps the order of first appearance', () => {
    expect([...parseProperties('z=1\na=2\nm=3\n').keys()]).toEqual(['z', 'a', 'm']);
  });
});

describe('formatProperties', () => {
  it('writes comment lines first, then key=value lines with Java escapes', () => {
    const text = formatProperties([['hoodie.table.create.schema', '{"type":"record"}'], ['k', 'a=b#c!d\\e']], ['Updated at 2024-01-01', 'Mon Jan 01']);
    expect(text).toBe('#Updated at 2024-01-01\n#Mon Jan 01\nhoodie.table.create.schema={"type"\\:"record"}\nk=a\\=b\\#c\\!d\\\\e\n');
  });

  it('escapes every space in keys but only a leading space in values', () => {
    expect(formatProperties([['a key', ' lead and inner ']])).toBe('a\\ key=\\ lead and inner \n');
  });

  it('escapes control characters and non-ASCII as uppercase \\uXXXX', () => {
    expect(formatProperties([['k', 'tab\there\nnl é \u0001 😀']])).toBe('k=tab\\there\\nnl \\u00E9 \\u0001 \\uD83D\\uDE00\n');
  });

  it('round-trips awkward keys and values through parseProperties', () => {
    const props: [string, string][] = [
      ['hoodie.table.create.schema', '{"type":"record","name":"trips","fields":[{"name":"ts","type":"long"}]}'],
      ['spaces key', '  leading and trailing  '],
      ['k=with:separators', 'v=with:separators#and!marks'],
      ['#not-a-comment', '!neither'],
      ['unicode', 'Zürich — 東京 😀'],
      ['controls', 'a\tb\nc\rd\fe\\f'],
      ['empty', ''],
      ['trailing backslash', 'C:\\dir\\'],
    ];
    expect([...parseProperties(formatProperties(props, ['header']))]).toEqual(props);
  });
});
