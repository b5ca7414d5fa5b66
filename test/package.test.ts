// The package as consumers get it: the exports map resolves to files a build emits, the runtime dependencies are
// an allow-list (Arrow imported by one module only), the barrel exports exactly the public names, and bundling
// `import 'lakelet'` for the browser pulls no Node built-in.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { build } from 'rolldown';
import { beforeAll, describe, expect, test } from 'vitest';
import * as lakelet from '../src/index.js';
import { BASE_FILE_CREATED_BY } from '../src/format/parquet/write.js';

const ROOT = join(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string; sideEffects: unknown; main: string; types: string; bin: Record<string, string>;
  exports: Record<string, string | Record<string, string>>; dependencies: Record<string, string>;
};
/** A scratch install: node_modules/lakelet (package.json + a fresh build as dist/) beside an app that imports it. */
// Real paths (node_modules may be a symlink, as in a git worktree): resolution and bundlers report real paths.
const NODE_MODULES = realpathSync(join(ROOT, 'node_modules'));
const WORK = join(NODE_MODULES, '.cache', 'lakelet-package-test');
const INSTALLED = join(WORK, 'node_modules', 'lakelet');

/** The runtime dependencies lakelet may have, each with its job. */
const ALLOWED_DEPENDENCIES = ['apache-arrow', 'comlink', 'fflate', 'hyparquet', 'hyparquet-compressors', 'idb'];

/** Every runtime value of the main entry (types live in types.ts). Growing this list is an API decision. */
const PUBLIC_VALUES = [
  'LakeletError', 'META_FIELDS', 'MicrosDate', 'Table', 'createTable', 'fileListStorage', 'findTableRoot', 'httpStorage', 'indexedDbStorage',
  'isLakeletError', 'jsonRow', 'memoryStorage', 'openTable', 'opfsStorage', 'parseFilter', 'prefixedStorage', 's3Storage', 'tableStorage',
  'validateTable', 'withTableWriteLock', 'zipStorage',
  'dropTable', 'hiveMetastoreHttp', 'hiveSyncStatements', 'listTables', 'registerTable',
  'replicate', 'sync',
  'avroSchemaToJson', 'evolveSchemaForRows',
  'validators',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Bare (package) specifiers of a source file's value imports: static, re-exports, dynamic; `import type` left out. */
function packageImports(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/^\s*(import|export)(\s+type\b)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/gm)) if (!m[2]) out.push(m[3] as string);
  for (const m of source.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1] as string);
  return out.filter((s) => !s.startsWith('.') && !s.startsWith('/'));
}
const packageName = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
const isNodeBuiltin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(packageName(specifier));

describe('package.json', () => {
  test('runtime dependencies are exactly the allow-list, and side-effect free', () => {
    expect(Object.keys(pkg.dependencies).sort()).toEqual(ALLOWED_DEPENDENCIES);
    expect(pkg.sideEffects).toBe(false);
  });

  test("BASE_FILE_CREATED_BY names lakelet's own encoder and version", () => {
    expect(BASE_FILE_CREATED_BY).toBe(`lakelet version ${pkg.version} (build lakelet)`);
  });

  test('src/ imports only its dependencies (Node built-ins only under node/ and the node-fs store); apache-arrow only in arrow/arrow.ts', () => {
    const bad: string[] = [];
    const arrowImporters: string[] = [];
    for (const file of sourceFiles(join(ROOT, 'src'))) {
      const rel = relative(join(ROOT, 'src'), file);
      for (const s of packageImports(readFileSync(file, 'utf8'))) {
        if (isNodeBuiltin(s)) {
          if (!rel.startsWith('node/') && rel !== 'storage/node-fs.ts') bad.push(`${rel}: Node built-in ${s}`);
        } else if (!ALLOWED_DEPENDENCIES.includes(packageName(s))) bad.push(`${rel}: ${s} is not a dependency`);
        if (packageName(s) === 'apache-arrow') arrowImporters.push(rel);
      }
    }
    expect(bad).toEqual([]);
    expect([...new Set(arrowImporters)]).toEqual(['arrow/arrow.ts']);
  });
});

describe('the public barrel', () => {
  test('exports exactly the public values (no SigV4 signing, listing manifest, lock names or clocks)', () => {
    expect(Object.keys(lakelet).sort()).toEqual([...PUBLIC_VALUES].sort());
  });
});

describe('the built package', () => {
  beforeAll(() => {
    rmSync(WORK, { recursive: true, force: true });
    mkdirSync(INSTALLED, { recursive: true });
    // Emit only (the typecheck is its own step): the same tsconfig `npm run build` uses, into the scratch install.
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.json'), '--outDir', join(INSTALLED, 'dist'), '--noCheck', '--sourceMap', 'false'], { encoding: 'utf8' });
    if (tsc.status !== 0) throw new Error(`tsc failed:\n${tsc.stdout}${tsc.stderr}`);
    cpSync(join(ROOT, 'package.json'), join(INSTALLED, 'package.json'));
    // The app's own package scope, so 'lakelet' resolves to the install, not to the checkout by self-reference.
    writeFileSync(join(WORK, 'package.json'), JSON.stringify({ name: 'lakelet-package-test-app', private: true, type: 'module' }));
    cpSync(join(ROOT, 'bin'), join(INSTALLED, 'bin'), { recursive: true });
  }, 120_000);

  test('every target of the exports map, main, types and bin exists after a build', () => {
    expect(Object.keys(pkg.exports).sort()).toEqual(['.', './node', './package.json']);
    const targets = Object.values(pkg.exports).flatMap((t) => (typeof t === 'string' ? [t] : Object.values(t)));
    targets.push(pkg.main, pkg.types, ...Object.values(pkg.bin));
    for (const t of targets) expect(existsSync(join(INSTALLED, t)), t).toBe(true);
    for (const entry of ['.', './node']) {
      const map = pkg.exports[entry] as Record<string, string>;
      expect(map.types).toMatch(/\.d\.ts$/);
      expect(map.default).toMatch(/\.js$/);
    }
    // bin/lakelet.js runs the CLI from dist/node/cli/cli.js.
    expect(existsSync(join(INSTALLED, 'dist', 'node', 'cli', 'cli.js'))).toBe(true);
  });

  test("import 'lakelet' and 'lakelet/node' load in Node through the exports map", async () => {
    writeFileSync(join(WORK, 'probe.mjs'), "export const main = await import('lakelet'); export const node = await import('lakelet/node');\n");
    const probe = (await import(join(WORK, 'probe.mjs'))) as { main: Record<string, unknown>; node: Record<string, unknown> };
    // Node takes the "node" condition: the browser entry's values, with worker_threads pools and node:zlib compression.
    expect(createRequire(join(WORK, 'probe.mjs')).resolve('lakelet')).toBe(join(INSTALLED, 'dist', 'node', 'main.js'));
    expect(Object.keys(probe.main).sort()).toEqual([...PUBLIC_VALUES].sort());
    for (const name of ['nodeFsStorage', 'storageForPath', 'publishListing', 'readParquetFile', 'openTable']) expect(typeof probe.node[name], name).toBe('function');
  });

  /** Bundle `export * from '<specifier>'` for the browser: the Node built-ins it reaches and its module ids. */
  async function browserBundle(specifier: string): Promise<{ builtins: string[]; modules: string[] }> {
    const app = join(WORK, `app-${specifier.replace(/\W/g, '-')}.js`);
    writeFileSync(app, `export * from '${specifier}';\n`);
    const builtins: string[] = [];
    const out = await build({
      input: app,
      platform: 'browser',
      write: false,
      logLevel: 'silent',
      plugins: [{
        name: 'no-node-builtins',
        resolveId(id, importer) {
          if (isNodeBuiltin(id)) builtins.push(`${id} (from ${importer ?? 'the entry'})`);
          return null;
        },
      }],
    });
    return { builtins, modules: out.output.flatMap((o) => (o.type === 'chunk' ? Object.keys(o.modules) : [])) };
  }

  test("bundling import 'lakelet' for the browser pulls no Node built-in (the Node entry does: the check sees them)", async () => {
    const { builtins, modules } = await browserBundle('lakelet');
    expect(builtins).toEqual([]);
    expect(modules.some((m) => m.startsWith(join(INSTALLED, 'dist', 'table')))).toBe(true); // the install, not the checkout
    // Every module is the install's or a dependency's; `\0`-prefixed ids are the bundler's own runtime helpers.
    expect(modules.filter((m) => !m.startsWith(NODE_MODULES) && !m.startsWith('\0'))).toEqual([]);
    expect(modules.filter((m) => m.startsWith(join(INSTALLED, 'dist', 'node')))).toEqual([]);
    expect((await browserBundle('lakelet/node')).builtins.some((b) => b.startsWith('node:fs'))).toBe(true);
  });
});
