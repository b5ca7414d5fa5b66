// `node bench/cpu-top.mjs FILE.cpuprofile|DIR [--top N]`: the hottest functions of a V8 CPU profile (from
// `npm run bench -- --cpu-prof DIR`) by self time, with their hottest line, mapped back to src/*.ts through
// the build's source maps where there is one; then self time per file. Given a directory (a phase's profiles,
// one per thread: the main thread's and each pool worker's), the samples of all its profiles are summed and the
// shares are of their total profiled time, so a pooled write's costs show where they run.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
const file = argv.find((a) => !a.startsWith('--'));
const top = Number(argv[argv.indexOf('--top') + 1]) || 25;
if (!file) {
  console.error('usage: node bench/cpu-top.mjs FILE.cpuprofile|DIR [--top N]');
  process.exit(2);
}
const paths = statSync(file).isDirectory() ? readdirSync(file).filter((n) => n.endsWith('.cpuprofile')).sort().map((n) => resolve(file, n)) : [file];
if (paths.length === 0) {
  console.error(`bench: no .cpuprofile in ${file}`);
  process.exit(2);
}
const profiles = paths.map((p) => JSON.parse(readFileSync(p, 'utf8')));
const cwd = process.cwd();

const maps = new Map();
function sourceMapOf(path) {
  if (!maps.has(path)) {
    let map;
    try {
      if (existsSync(`${path}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
    } catch {
      map = undefined;
    }
    maps.set(path, map);
  }
  return maps.get(path);
}

/** `file:line` of a 1-based line in a script URL, mapped to the original source when a map exists. */
function where(url, line, column = 0) {
  if (!url) return '(native)';
  let path = url;
  if (url.startsWith('file://')) path = fileURLToPath(url);
  else return `${url}:${line}`;
  const map = sourceMapOf(path);
  if (map) {
    const e = map.findEntry(line - 1, column);
    if (e && e.originalSource) {
      const o = e.originalSource;
      const src = o.startsWith('file://') ? fileURLToPath(o) : isAbsolute(o) ? o : resolve(dirname(path), o);
      return `${relative(cwd, src)}:${e.originalLine + 1}`;
    }
  }
  return `${relative(cwd, path)}:${line}`;
}

// Aggregate by function (name + script + definition line) over every profile; keep the line ticks to find the hottest line.
const fns = new Map();
let totalMs = 0;
let samples = 0;
for (const profile of profiles) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMs = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  totalMs += (profile.endTime - profile.startTime) / 1000;
  samples += profile.samples.length;
  for (const [id, ms] of selfMs) {
    const n = byId.get(id);
    const cf = n.callFrame;
    const key = `${cf.functionName}\u0000${cf.url}\u0000${cf.lineNumber}`;
    let f = fns.get(key);
    if (!f) fns.set(key, (f = { name: cf.functionName || '(anonymous)', url: cf.url, line: cf.lineNumber + 1, column: cf.columnNumber, ms: 0, lines: new Map() }));
    f.ms += ms;
    for (const t of n.positionTicks ?? []) f.lines.set(t.line, (f.lines.get(t.line) ?? 0) + t.ticks);
  }
}
const list = [...fns.values()].sort((a, b) => b.ms - a.ms);
console.log(`${file}: ${(totalMs / 1000).toFixed(2)} s profiled, ${samples} samples${paths.length > 1 ? `, ${paths.length} threads summed` : ''}`);
console.log(`\ntop ${top} functions by self time`);
for (const f of list.slice(0, top)) {
  const hot = [...f.lines.entries()].sort((a, b) => b[1] - a[1])[0];
  const hotLine = hot ? `; hottest line ${where(f.url, hot[0])}` : '';
  console.log(`  ${f.ms.toFixed(0).padStart(7)} ms ${((100 * f.ms) / totalMs).toFixed(1).padStart(5)} %  ${f.name}  ${where(f.url, f.line, f.column)}${hotLine}`);
}

const files = new Map();
for (const f of list) {
  const key = f.url ? where(f.url, f.line, f.column).replace(/:\d+$/, '') : f.name.startsWith('(') ? f.name : '(native)';
  files.set(key, (files.get(key) ?? 0) + f.ms);
}
console.log('\nself time by file');
for (const [k, ms] of [...files.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / totalMs).toFixed(1).padStart(5)} %  ${k}`);
