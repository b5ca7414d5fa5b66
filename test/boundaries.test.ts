// The import graph of src/ guards the layout (DESIGN.md §1, architecture-next.md §8.1 rule 1): no file-level cycle
// of run-time imports; pure folders never import engine/, storage/ (type-only storage/storage.ts aside), worker/,
// node/ or table/; worker/ imports only pure code. Read with the TypeScript parser, dynamic import() included.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

/** One import of one file: `to` is a path relative to src/ (`undefined` when it resolves to no file). */
interface Edge {
  from: string;
  to: string | undefined;
  specifier: string;
  /** `import type`, `export type`, every named binding `type`, or an `import('…')` type. */
  typeOnly: boolean;
  line: number;
}

/** The relative imports, re-exports and dynamic imports of one source file. */
function importsOf(path: string, source: string): Omit<Edge, 'from' | 'to'>[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: Omit<Edge, 'from' | 'to'>[] = [];
  const add = (spec: ts.Node | undefined, typeOnly: boolean, at: ts.Node) => {
    if (spec && ts.isStringLiteralLike(spec) && spec.text.startsWith('.')) {
      out.push({ specifier: spec.text, typeOnly, line: file.getLineAndCharacterOfPosition(at.getStart(file)).line + 1 });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const allTypes = !!clause && !clause.name && !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier, !!clause && (clause.isTypeOnly || allTypes), node);
    } else if (ts.isExportDeclaration(node)) {
      const clause = node.exportClause;
      const allTypes = !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier, node.isTypeOnly || allTypes, node);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false, node);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true, node);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** Resolve `specifier` from `from` (both relative to src/): `./x.js` is `x.ts`. */
function resolveImport(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  const joined = posix.normalize(posix.join(posix.dirname(from), specifier));
  const candidates = [joined.replace(/\.js$/, '.ts'), joined.replace(/\.js$/, '.d.ts'), joined, `${joined}.ts`, `${joined}/index.ts`];
  return candidates.find((c) => files.has(c));
}

/** Every import edge of a set of files (path relative to src/ → source). */
function importGraph(sources: ReadonlyMap<string, string>): Edge[] {
  const files = new Set(sources.keys());
  return [...sources].flatMap(([from, source]) => importsOf(from, source).map((i) => ({ ...i, from, to: resolveImport(from, i.specifier, files) })));
}

/** A strongly connected set of files: every one reaches every other through imports. */
interface Cycle {
  /** A shortest cycle through the first of `files`: that file, the files it passes, that file again. */
  path: string[];
  /** Every file of the component, sorted (more than `path` when several cycles overlap). */
  files: string[];
}

/**
 * One {@link Cycle} per strongly connected component of more than one file, or a file importing itself, over
 * the imports that exist at run time: type-only imports are erased by TypeScript and order nothing.
 */
function findCycles(edges: readonly Edge[]): Cycle[] {
  const next = new Map<string, string[]>();
  for (const e of edges) if (e.to !== undefined && !e.typeOnly) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) {
      onStack.delete(w);
      component.push(w);
    }
    if (component.length > 1 || (next.get(v) ?? []).includes(v)) components.push(component);
  };
  for (const v of [...new Set(edges.map((e) => e.from))].sort()) if (!index.has(v)) connect(v);
  // Within a component, a shortest path back from its first file (in path order) to itself.
  return components.map((component) => ({ path: shortestCycle(next, component), files: [...component].sort() }));
}

/** Breadth first, inside `component`: the shortest way from its first file (in path order) back to itself. */
function shortestCycle(next: ReadonlyMap<string, readonly string[]>, component: readonly string[]): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0] as string;
  const prev = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i] as string;
    for (const w of (next.get(v) ?? []).filter((x) => members.has(x))) {
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(prev.get(path[0] as string) as string);
        return [...path, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start]; // not reached: every file of a component lies on a cycle through start
}

/** A cycle as one readable line. */
const describeCycle = (c: Cycle): string => `${c.path.join(' → ')}${c.files.length > c.path.length - 1 ? ` (one cycle of ${c.files.join(', ')})` : ''}`;

/** Folders (and top-level files) that take values and return values: no I/O, no engine. */
const PURE = new Set(['config', 'metadata', 'timeline', 'file-group', 'format', 'index', 'plan', 'merge', 'schema', 'expr', 'kernels', 'keygen', 'arrow', 'errors.ts', 'layout.ts']);
/** What a pure folder must not import. */
const IMPURE = new Set(['engine', 'storage', 'worker', 'node', 'table']);
/** The one impure file a pure folder may import, for its types: the `Storage` contract. */
const STORAGE_CONTRACT = 'storage/storage.ts';

/** The folder of a path relative to src/ (`errors.ts` for a top-level file). */
const folderOf = (path: string): string => path.split('/')[0] as string;

/** Import edges that break the purity rules, as readable lines. */
function boundaryViolations(edges: readonly Edge[]): string[] {
  const out: string[] = [];
  for (const e of edges) {
    if (e.to === undefined) continue;
    const from = folderOf(e.from);
    const to = folderOf(e.to);
    const contract = e.typeOnly && e.to === STORAGE_CONTRACT;
    if (PURE.has(from) && IMPURE.has(to) && !contract) out.push(`pure ${e.from}:${e.line} imports ${e.to}${e.typeOnly ? ' (type)' : ''}`);
    if (from === 'worker' && to !== 'worker' && !PURE.has(to) && !contract) out.push(`worker ${e.from}:${e.line} imports ${e.to}${e.typeOnly ? ' (type)' : ''}`);
  }
  return out;
}

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

function sourcesOf(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const full = join(entry.parentPath, entry.name);
    out.set(relative(dir, full).split('\\').join('/'), readFileSync(full, 'utf8'));
  }
  return out;
}

describe('the import-graph walker (on a synthetic graph)', () => {
  const graph = importGraph(new Map([
    ['plan/a.ts', "import { b } from './b.js';\nimport type { S } from '../storage/storage.js';\nexport { c } from '../merge/c.js';"],
    ['plan/b.ts', "// import { x } from '../engine/commented.js';\nconst s = \"import '../engine/string.js'\";\nexport const b = () => import('../engine/lazy.js');"],
    ['merge/c.ts', "import { a } from '../plan/a.js';\nimport { S } from '../storage/storage.js';\nexport type T = import('../table/t.js').T;"],
    ['worker/w.ts', "import { a } from '../plan/a.js';\nimport type { E } from '../engine/e.js';\nimport { type F, type G } from '../node/n.js';\nimport { w } from './w.js';"],
    ['engine/lazy.ts', ''],
    ['engine/e.ts', ''], ['table/t.ts', ''], ['node/n.ts', ''], ['storage/storage.ts', ''],
  ]));

  test('reads imports, re-exports, dynamic import() and import types; skips comments and strings; resolves .js to .ts', () => {
    const of = (from: string) => graph.filter((e) => e.from === from).map((e) => `${e.to}${e.typeOnly ? ' (type)' : ''}`);
    expect(of('plan/a.ts')).toEqual(['plan/b.ts', 'storage/storage.ts (type)', 'merge/c.ts']);
    expect(of('plan/b.ts')).toEqual(['engine/lazy.ts']);
    expect(of('merge/c.ts')).toEqual(['plan/a.ts', 'storage/storage.ts', 'table/t.ts (type)']);
    expect(of('worker/w.ts')).toEqual(['plan/a.ts', 'engine/e.ts (type)', 'node/n.ts (type)', 'worker/w.ts']);
  });

  test('finds every cycle, a self-import included', () => {
    expect(findCycles(graph).map(describeCycle).sort()).toEqual([
      'merge/c.ts → plan/a.ts → merge/c.ts',
      'worker/w.ts → worker/w.ts',
    ]);
    const longer = findCycles(importGraph(new Map([['x/a.ts', "import './b.js';"], ['x/b.ts', "import './c.js';"], ['x/c.ts', "import './a.js';"]])));
    expect(longer).toEqual([{ path: ['x/a.ts', 'x/b.ts', 'x/c.ts', 'x/a.ts'], files: ['x/a.ts', 'x/b.ts', 'x/c.ts'] }]);
    expect(findCycles(importGraph(new Map([['x/a.ts', "import './b.js';"], ['x/b.ts', '']])))).toEqual([]);
  });

  test('type-only imports close no cycle (TypeScript erases them)', () => {
    const typeBack = new Map([['x/a.ts', "import { b } from './b.js';"], ['x/b.ts', "import type { A } from './a.js';\nexport type C = import('./a.js').A;"]]);
    expect(findCycles(importGraph(typeBack))).toEqual([]);
    expect(findCycles(importGraph(new Map([...typeBack, ['x/b.ts', "import { type A, a } from './a.js';"]]))).map(describeCycle)).toEqual(['x/a.ts → x/b.ts → x/a.ts']);
  });

  test('overlapping cycles are one component, listed whole', () => {
    const overlapping = importGraph(new Map([['x/a.ts', "import './b.js';"], ['x/b.ts', "import './a.js';\nimport './c.js';"], ['x/c.ts', "import './b.js';"], ['x/d.ts', "import './a.js';"]]));
    expect(findCycles(overlapping).map(describeCycle)).toEqual(['x/a.ts → x/b.ts → x/a.ts (one cycle of x/a.ts, x/b.ts, x/c.ts)']);
  });

  test('flags pure → impure (type-only storage contract aside) and worker → non-pure', () => {
    expect(boundaryViolations(graph)).toEqual([
      'pure plan/b.ts:3 imports engine/lazy.ts',
      'pure merge/c.ts:2 imports storage/storage.ts',
      'pure merge/c.ts:3 imports table/t.ts (type)',
      'worker worker/w.ts:2 imports engine/e.ts (type)',
      'worker worker/w.ts:3 imports node/n.ts (type)',
    ]);
  });
});

describe('src/ import graph', () => {
  const sources = sourcesOf(SRC);
  const edges = importGraph(sources);

  test('the walk covers src/, and every folder the rules name exists', () => {
    expect(sources.size).toBeGreaterThan(100);
    expect(edges.length).toBeGreaterThan(500);
    const present = new Set([...sources.keys()].map(folderOf));
    expect([...PURE, ...IMPURE].filter((f) => !present.has(f))).toEqual([]);
  });

  test('every relative import resolves to a file of src/', () => {
    expect(edges.filter((e) => e.to === undefined).map((e) => `${e.from}:${e.line} ${e.specifier}`)).toEqual([]);
  });

  test('no file-level import cycle', () => {
    expect(findCycles(edges).map(describeCycle)).toEqual([]);
  });

  test('pure folders import no engine/, storage/, worker/, node/ or table/; worker/ imports only pure code', () => {
    expect(boundaryViolations(edges)).toEqual([]);
  });
});
