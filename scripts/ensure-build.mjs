// Makes sure dist/ holds the JavaScript of src/, bench/, soak/ and test/support/, transpiling them with esbuild (file by file,
// no bundling, ES2022 modules, source maps) when it does not, so `npm start`, `npm run replay` and the
// benchmarks run plain JavaScript, and the dashboard (ui/, bundled into dist/ui/ by scripts/build-ui.mjs), which
// the server serves at /ui/. Types are checked by `npm run typecheck`, not here: this takes about a second.
//
// Why not tsx at run time: tsx transpiles with esbuild's keep-names option, so every closure a function creates
// goes through a helper call and an Object.defineProperty; on the HTTP front that is about a third of the CPU
// of a signed order request (README, HTTP front). Tests keep running from the TypeScript sources (vitest).
//
// dist/ is current when dist/.ringmatch-build holds the fingerprint of the sources: every .ts file's path,
// size and modification time under those directories, every file's under ui/, plus tsconfig.json,
// package-lock.json and the dashboard's build script. An edit,
// a checkout or an added or removed file changes it. Run from the package root (after ensure-deps).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

/** test/support holds the children some soaks start (crash cycles, the crash child). */
const ROOTS = ['src', 'bench', 'soak', 'test/support'];
const FILES = ['tsconfig.json', 'package-lock.json'];
/** The dashboard's sources (every file: components, styles, the page) and its build script. */
const UI = 'ui';
const UI_BUILD = fileURLToPath(new URL('./build-ui.mjs', import.meta.url));
const STAMP = 'dist/.ringmatch-build';

function walk(dir, out, all = false) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out, all);
    else if (all || p.endsWith('.ts')) out.push(p);
  }
  return out;
}

// A root may be absent (a packed copy of the package has no test/, nor ui/).
const files = [...ROOTS.filter((r) => existsSync(r)).flatMap((r) => walk(r, [])).sort(), ...FILES];
const withUi = existsSync(path.join(UI, 'src'));
const uiFiles = withUi ? [...walk(UI, [], true).sort(), UI_BUILD] : [];
const h = createHash('sha256');
for (const f of [...files, ...uiFiles]) {
  const s = statSync(f);
  h.update(`${f}\0${s.size}\0${s.mtimeMs}\n`);
}
const fingerprint = h.digest('hex');
const current = () => existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === fingerprint;
if (current()) process.exit(0);

// Two commands started at once (npm start beside npm run replay) must not both empty and rewrite dist/: the
// builder holds dist.lock (a directory, created atomically); the other waits, then finds dist/ current. A lock
// older than a minute is a crashed build's and is taken over.
const LOCK = 'dist.lock';
for (let waited = 0; ; waited += 100) {
  try {
    mkdirSync(LOCK);
    break;
  } catch (e) {
    if (e.code !== 'EEXIST') throw e;
    let age;
    try { age = Date.now() - statSync(LOCK).mtimeMs; } catch { continue; }
    if (age > 60_000) { rmSync(LOCK, { recursive: true, force: true }); continue; }
    if (waited > 120_000) { process.stderr.write(`ringmatch: ${LOCK} held for two minutes; remove it if no build runs\n`); process.exit(1); }
    await sleep(100);
  }
}
process.on('exit', () => rmSync(LOCK, { recursive: true, force: true }));
if (current()) process.exit(0);

const t0 = Date.now();
// A stale dist/ may hold files of sources that no longer exist; start clean.
rmSync('dist', { recursive: true, force: true });
const { build } = await import('esbuild');
try {
  await build({
    entryPoints: files.filter((f) => f.endsWith('.ts')), outdir: 'dist', outbase: '.', format: 'esm', platform: 'node',
    target: 'node20', sourcemap: true, bundle: false, logLevel: 'warning',
  });
} catch {
  process.stderr.write('ringmatch: transpiling to dist/ failed (see above)\n');
  process.exit(1);
}
if (withUi) {
  try {
    const { buildUi } = await import('./build-ui.mjs');
    await buildUi('dist/ui');
  } catch (e) {
    process.stderr.write(`ringmatch: building the dashboard into dist/ui/ failed: ${e instanceof Error ? e.message : e}\n`);
    process.exit(1);
  }
}
writeFileSync(STAMP, `${fingerprint}\n`);
process.stderr.write(`ringmatch: transpiled ${files.length - FILES.length} files${withUi ? ' and built the dashboard' : ''} to dist/ in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
