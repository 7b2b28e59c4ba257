// Makes sure node_modules holds what package-lock.json names, installing it with `npm ci` when it does not, so
// `npm test`, `npm start`, `npm run replay` and the benchmarks work on a fresh clone. Run from the package root.
//
// node_modules is current when either
//   - node_modules/.ringmatch-deps holds the SHA-256 of package-lock.json (this script writes it after an
//     install of its own succeeded), or
//   - npm's record of what it installed (node_modules/.package-lock.json) has, for every package the lock file
//     names, the same version (and integrity where both give one), and nothing else; optional packages may be
//     absent (other platforms' binaries).
// File times decide nothing: a checkout, a fresh git worktree or a copy touches package-lock.json without
// changing what it names.
//
// A node_modules that is a symbolic link (a worktree sharing another checkout's install) is never installed
// into, since `npm ci` would empty the install others use: when it is not current the script says so and exits 1.
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';

const LOCK = 'package-lock.json';
const MARKER = 'node_modules/.ringmatch-deps';
const INSTALLED = 'node_modules/.package-lock.json';

const readJson = (file) => {
  try { return JSON.parse(readFileSync(file, 'utf8')); } catch { return undefined; }
};

/** True when npm's record of the install names exactly the packages of the lock file (see the header). */
function installedMatches(lock) {
  const installed = readJson(INSTALLED)?.packages;
  const wanted = lock?.packages;
  if (installed === undefined || wanted === undefined) return false;
  const same = (a, b) => a.version === b.version && (a.integrity === undefined || b.integrity === undefined || a.integrity === b.integrity);
  for (const [path, pkg] of Object.entries(wanted)) {
    if (path === '' || pkg.link === true) continue;
    const got = installed[path];
    if (got === undefined ? pkg.optional !== true : !same(pkg, got)) return false;
  }
  return Object.keys(installed).every((path) => wanted[path] !== undefined);
}

const lockText = readFileSync(LOCK);
const hash = createHash('sha256').update(lockText).digest('hex');
const marked = existsSync(MARKER) && readFileSync(MARKER, 'utf8').trim() === hash;
if (!marked && !installedMatches(readJson(LOCK))) {
  if (existsSync('node_modules') && lstatSync('node_modules').isSymbolicLink()) {
    process.stderr.write(`ringmatch: node_modules links to ${realpathSync('node_modules')}, whose packages differ from ${LOCK}; `
      + 'install there (npm ci) or replace the link with an install of its own\n');
    process.exit(1);
  }
  process.stderr.write('ringmatch: installing dependencies (npm ci)…\n');
  execSync('npm ci --no-audit --no-fund', { stdio: ['ignore', 2, 2], env: { ...process.env, RINGMATCH_SKIP_DECLARATIONS: '1' } });
  writeFileSync(MARKER, `${hash}\n`);
}
