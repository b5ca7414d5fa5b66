// Java `java.util.Properties` text: the format of hoodie.properties and .hoodie_partition_metadata.
// Parsing follows the Java rules (comments, `=`/`:`/space separators, backslash escapes, continuation lines).

/** Parse Java-properties text into an ordered key → value map. */
export function parseProperties(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = (lines[i] ?? '').replace(/^[ \t\f]+/, '');
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    // Continuation: an odd number of trailing backslashes joins the next line.
    while (endsWithOddBackslashes(line) && i + 1 < lines.length) {
      line = line.slice(0, -1) + (lines[++i] ?? '').replace(/^[ \t\f]+/, '');
    }
    let k = 0;
    while (k < line.length) {
      const c = line[k];
      if (c === '\\') { k += 2; continue; }
      if (c === '=' || c === ':' || c === ' ' || c === '\t' || c === '\f') break;
      k++;
    }
    const rawKey = line.slice(0, Math.min(k, line.length));
    let v = k;
    while (v < line.length && (line[v] === ' ' || line[v] === '\t' || line[v] === '\f')) v++;
    if (v < line.length && (line[v] === '=' || line[v] === ':')) v++;
    while (v < line.length && (line[v] === ' ' || line[v] === '\t' || line[v] === '\f')) v++;
    out.set(unescape(rawKey), unescape(line.slice(v)));
  }
  return out;
}

function endsWithOddBackslashes(line: string): boolean {
  let n = 0;
  for (let i = line.length - 1; i >= 0 && line[i] === '\\'; i--) n++;
  return n % 2 === 1;
}

function unescape(s: string): string {
  if (!s.includes('\\')) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== '\\') { out += c; continue; }
    const n = s[++i];
    if (n === undefined) break;
    if (n === 't') out += '\t';
    else if (n === 'n') out += '\n';
    else if (n === 'r') out += '\r';
    else if (n === 'f') out += '\f';
    else if (n === 'u' && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 1, i + 5))) {
      out += String.fromCharCode(parseInt(s.slice(i + 1, i + 5), 16));
      i += 4;
    } else out += n;
  }
  return out;
}

function escape(s: string, isKey: boolean): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    const code = c.charCodeAt(0);
    if (c === '\\') out += '\\\\';
    else if (c === '\t') out += '\\t';
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\f') out += '\\f';
    else if (c === '=' || c === ':' || c === '#' || c === '!') out += `\\${c}`;
    else if (c === ' ' && (isKey || i === 0)) out += '\\ ';
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += c;
  }
  return out;
}

/**
 * Serialize properties as Java does: `#` comment lines first, then `key=value` lines with `:`, `=`,
 * `#`, `!`, backslashes and non-ASCII characters escaped.
 */
export function formatProperties(props: Iterable<[string, string]>, comments: string[] = []): string {
  const lines = comments.map((c) => `#${c}`);
  for (const [k, v] of props) lines.push(`${escape(k, true)}=${escape(v, false)}`);
  return lines.join('\n') + '\n';
}
