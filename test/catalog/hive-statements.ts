// A small HiveQL parser for the statement shapes Hudi's HiveSyncTool issues (CREATE [EXTERNAL] TABLE, ALTER
// TABLE … ADD / DROP PARTITION, REPLACE COLUMNS, SET TBLPROPERTIES), so tests check what the statements say
// — every column, type, partition and property — rather than their spelling. Types come back normalised:
// lower case, no spaces (`decimal(10,2)`, `struct<a:int,b:array<string>>`).

/** A column: name and normalised type. */
export interface ParsedColumn {
  name: string;
  type: string;
}

/** One parsed statement. */
export type ParsedStatement =
  | {
    kind: 'create'; external: boolean; db: string; table: string; columns: ParsedColumn[]; partitionColumns: ParsedColumn[];
    serde: string; serdeProperties: Record<string, string>; inputFormat: string; outputFormat: string; location: string;
    tableProperties: Record<string, string>;
  }
  | { kind: 'add'; db: string; table: string; partitions: { spec: Record<string, string>; location: string }[] }
  | { kind: 'drop'; db: string; table: string; partitions: Record<string, string>[] }
  | { kind: 'replace'; db: string; table: string; columns: ParsedColumn[]; cascade: boolean }
  | { kind: 'set-properties'; db: string; table: string; properties: Record<string, string> };

type Token = { t: 'id' | 'str' | 'word' | 'num' | 'p'; v: string };

function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    if (/\s/.test(c)) { i++; continue; }
    if (c === '`' || c === "'") {
      const end = sql.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unterminated ${c} at ${i}`);
      out.push({ t: c === '`' ? 'id' : 'str', v: sql.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i));
    if (word) { out.push({ t: 'word', v: word[0] }); i += word[0].length; continue; }
    const num = /^\d+/.exec(sql.slice(i));
    if (num) { out.push({ t: 'num', v: num[0] }); i += num[0].length; continue; }
    if ('(),<>:=.'.includes(c)) { out.push({ t: 'p', v: c }); i++; continue; }
    throw new Error(`unexpected ${JSON.stringify(c)} at ${i} in ${sql.slice(Math.max(0, i - 30), i + 30)}`);
  }
  return out;
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  peek(offset = 0): Token | undefined { return this.tokens[this.pos + offset]; }
  done(): boolean { return this.pos >= this.tokens.length; }
  isWord(w: string, offset = 0): boolean { const t = this.peek(offset); return t?.t === 'word' && t.v.toUpperCase() === w; }
  isP(p: string): boolean { const t = this.peek(); return t?.t === 'p' && t.v === p; }

  next(): Token {
    const t = this.tokens[this.pos++];
    if (!t) throw new Error('unexpected end of statement');
    return t;
  }
  words(...ws: string[]): void {
    for (const w of ws) {
      const t = this.next();
      if (t.t !== 'word' || t.v.toUpperCase() !== w) throw new Error(`expected ${w}, got ${t.v}`);
    }
  }
  p(v: string): void {
    const t = this.next();
    if (t.t !== 'p' || t.v !== v) throw new Error(`expected ${v}, got ${t.v}`);
  }
  of(kind: Token['t']): string {
    const t = this.next();
    if (t.t !== kind) throw new Error(`expected a ${kind}, got ${t.t} ${t.v}`);
    return t.v;
  }
  tableName(): { db: string; table: string } {
    const db = this.of('id');
    this.p('.');
    return { db, table: this.of('id') };
  }
  type(): string {
    const name = this.of('word').toLowerCase();
    if (name === 'decimal') {
      this.p('(');
      const precision = this.of('num');
      this.p(',');
      const scale = this.of('num');
      this.p(')');
      return `decimal(${precision},${scale})`;
    }
    if (name === 'array') { this.p('<'); const t = this.type(); this.p('>'); return `array<${t}>`; }
    if (name === 'map') { this.p('<'); const k = this.type(); this.p(','); const v = this.type(); this.p('>'); return `map<${k},${v}>`; }
    if (name === 'struct') {
      this.p('<');
      const fields: string[] = [];
      do {
        if (fields.length > 0) this.p(',');
        const f = this.of('id');
        this.p(':');
        fields.push(`${f}:${this.type()}`);
      } while (this.isP(','));
      this.p('>');
      return `struct<${fields.join(',')}>`;
    }
    return name;
  }
  columns(): ParsedColumn[] {
    this.p('(');
    const out: ParsedColumn[] = [];
    while (!this.isP(')')) {
      if (out.length > 0) this.p(',');
      out.push({ name: this.of('id'), type: this.type() });
    }
    this.p(')');
    return out;
  }
  properties(): Record<string, string> {
    this.p('(');
    const out: Record<string, string> = {};
    while (!this.isP(')')) {
      if (Object.keys(out).length > 0) this.p(',');
      const k = this.of('str');
      this.p('=');
      out[k] = this.of('str');
    }
    this.p(')');
    return out;
  }
  partitionSpec(): Record<string, string> {
    this.words('PARTITION');
    this.p('(');
    const out: Record<string, string> = {};
    while (!this.isP(')')) {
      if (Object.keys(out).length > 0) this.p(',');
      const k = this.of('id');
      this.p('=');
      out[k] = this.of('str');
    }
    this.p(')');
    return out;
  }
}

function parseCreate(p: Parser): ParsedStatement {
  p.words('CREATE');
  const external = p.isWord('EXTERNAL');
  if (external) p.words('EXTERNAL');
  p.words('TABLE', 'IF', 'NOT', 'EXISTS');
  const { db, table } = p.tableName();
  const columns = p.columns();
  let partitionColumns: ParsedColumn[] = [];
  if (p.isWord('PARTITIONED')) { p.words('PARTITIONED', 'BY'); partitionColumns = p.columns(); }
  p.words('ROW', 'FORMAT', 'SERDE');
  const serde = p.of('str');
  let serdeProperties: Record<string, string> = {};
  if (p.isWord('WITH')) { p.words('WITH', 'SERDEPROPERTIES'); serdeProperties = p.properties(); }
  p.words('STORED', 'AS', 'INPUTFORMAT');
  const inputFormat = p.of('str');
  p.words('OUTPUTFORMAT');
  const outputFormat = p.of('str');
  p.words('LOCATION');
  const location = p.of('str');
  let tableProperties: Record<string, string> = {};
  if (p.isWord('TBLPROPERTIES')) { p.words('TBLPROPERTIES'); tableProperties = p.properties(); }
  return { kind: 'create', external, db, table, columns, partitionColumns, serde, serdeProperties, inputFormat, outputFormat, location, tableProperties };
}

function parseAlter(p: Parser): ParsedStatement {
  p.words('ALTER', 'TABLE');
  const { db, table } = p.tableName();
  if (p.isWord('ADD')) {
    p.words('ADD', 'IF', 'NOT', 'EXISTS');
    const partitions: { spec: Record<string, string>; location: string }[] = [];
    while (!p.done()) {
      const spec = p.partitionSpec();
      p.words('LOCATION');
      partitions.push({ spec, location: p.of('str') });
    }
    return { kind: 'add', db, table, partitions };
  }
  if (p.isWord('DROP')) {
    p.words('DROP', 'IF', 'EXISTS');
    const partitions: Record<string, string>[] = [];
    do {
      if (partitions.length > 0) p.p(',');
      partitions.push(p.partitionSpec());
    } while (!p.done());
    return { kind: 'drop', db, table, partitions };
  }
  if (p.isWord('REPLACE')) {
    p.words('REPLACE', 'COLUMNS');
    const columns = p.columns();
    const cascade = p.isWord('CASCADE');
    if (cascade) p.words('CASCADE');
    return { kind: 'replace', db, table, columns, cascade };
  }
  p.words('SET', 'TBLPROPERTIES');
  return { kind: 'set-properties', db, table, properties: p.properties() };
}

/** Parse one statement; anything outside these shapes (or trailing tokens) throws. */
export function parseHiveStatement(sql: string): ParsedStatement {
  const p = new Parser(tokenize(sql));
  const stmt = p.isWord('CREATE') ? parseCreate(p) : parseAlter(p);
  if (!p.done()) throw new Error(`trailing tokens after the statement: ${p.peek()?.v}`);
  return stmt;
}
