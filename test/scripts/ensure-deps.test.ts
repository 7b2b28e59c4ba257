// scripts/ensure-deps.mjs on scratch packages with a stand-in `npm` on PATH (it records its arguments and writes
// npm's record of an install, node_modules/.package-lock.json, from the lock file): it installs on a fresh
// clone and when the lock file names other packages, never because of file times, and never into a
// node_modules that links to another checkout's install.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = resolve('scripts/ensure-deps.mjs');
const root = mkdtempSync(join(tmpdir(), 'ringmatch-deps-'));
afterAll(() => { rmSync(root, { recursive: true, force: true }); });

// The stand-in npm: `npm ci` installs every package the lock names except optional ones (as for another platform).
const bin = join(root, 'bin');
mkdirSync(bin);
writeFileSync(join(bin, 'npm'), `#!/usr/bin/env node
const fs = require('node:fs');
fs.appendFileSync(process.env.NPM_LOG, process.argv.slice(2).join(' ') + '\\n');
if (process.env.NPM_FAIL) process.exit(1);
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const packages = Object.fromEntries(Object.entries(lock.packages).filter(([k, p]) => k !== '' && p.optional !== true));
fs.mkdirSync('node_modules', { recursive: true });
fs.writeFileSync('node_modules/.package-lock.json', JSON.stringify({ name: lock.name, lockfileVersion: 3, packages }));
`);
chmodSync(join(bin, 'npm'), 0o755);

const lock = (version: string, extra = ''): string => JSON.stringify({
  name: 'pkg', lockfileVersion: 3, packages: {
    '': { name: 'pkg', dependencies: { a: '^1' } },
    'node_modules/a': { version, integrity: `sha512-${version}` },
    'node_modules/@x/linux-only': { version: '1.0.0', optional: true },
  }, extra }, null, 2);

let n = 0;
/** A scratch package holding `lockText`. */
function pkg(lockText: string): string {
  const dir = join(root, `p${n++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package-lock.json'), lockText);
  return dir;
}

/** Runs the script in `dir`; returns its exit status, stderr and the npm calls it made. */
function ensure(dir: string, env: Record<string, string> = {}): { status: number | null; stderr: string; calls: string[] } {
  const log = join(dir, 'npm.log');
  rmSync(log, { force: true });
  const r = spawnSync(process.execPath, [SCRIPT], { cwd: dir, encoding: 'utf8',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, NPM_LOG: log, ...env } });
  const calls = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
  return { status: r.status, stderr: r.stderr, calls };
}

const future = (file: string): void => { const t = new Date(Date.now() + 3_600_000); utimesSync(file, t, t); };

describe('scripts/ensure-deps.mjs', () => {
  it('installs on a fresh clone, once', () => {
    const dir = pkg(lock('1.0.0'));
    const first = ensure(dir);
    expect(first.status).toBe(0);
    expect(first.calls).toEqual(['ci --no-audit --no-fund']);
    expect(readFileSync(join(dir, 'node_modules/.ringmatch-deps'), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
    expect(ensure(dir).calls).toEqual([]);
  });

  it('does not reinstall when only file times changed (a checkout or a new worktree touches the lock file)', () => {
    const dir = pkg(lock('1.0.0'));
    ensure(dir);
    future(join(dir, 'package-lock.json'));
    expect(ensure(dir)).toMatchObject({ status: 0, calls: [] });
    // Without this script's marker (an install made by `npm ci` itself), npm's own record decides.
    rmSync(join(dir, 'node_modules/.ringmatch-deps'));
    future(join(dir, 'package-lock.json'));
    expect(ensure(dir)).toMatchObject({ status: 0, calls: [] });
    // The lock file rewritten with the same packages (formatting, its own fields) is still current.
    writeFileSync(join(dir, 'package-lock.json'), lock('1.0.0', 'reformatted'));
    expect(ensure(dir)).toMatchObject({ status: 0, calls: [] });
  });

  it('reinstalls when the lock file names another version, or npm\'s record is missing or differs', () => {
    const dir = pkg(lock('1.0.0'));
    ensure(dir);
    writeFileSync(join(dir, 'package-lock.json'), lock('1.0.1'));
    expect(ensure(dir).calls).toEqual(['ci --no-audit --no-fund']);
    expect(ensure(dir).calls).toEqual([]);
    // npm's record with an extra package (installed by hand) no longer matches once the marker is gone.
    rmSync(join(dir, 'node_modules/.ringmatch-deps'));
    const record = JSON.parse(readFileSync(join(dir, 'node_modules/.package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    record.packages['node_modules/b'] = { version: '2.0.0' };
    writeFileSync(join(dir, 'node_modules/.package-lock.json'), JSON.stringify(record));
    expect(ensure(dir).calls).toEqual(['ci --no-audit --no-fund']);
    rmSync(join(dir, 'node_modules/.ringmatch-deps'));
    rmSync(join(dir, 'node_modules/.package-lock.json'));
    expect(ensure(dir).calls).toEqual(['ci --no-audit --no-fund']);
  });

  it('never installs into a node_modules that is a link to another install: it says so and exits 1', () => {
    const shared = pkg(lock('1.0.0'));
    ensure(shared);
    const worktree = pkg(lock('1.0.0'));
    symlinkSync(join(shared, 'node_modules'), join(worktree, 'node_modules'));
    future(join(worktree, 'package-lock.json'));
    expect(ensure(worktree)).toMatchObject({ status: 0, calls: [] });
    writeFileSync(join(worktree, 'package-lock.json'), lock('1.0.1'));
    const stale = ensure(worktree);
    expect(stale.status).toBe(1);
    expect(stale.calls).toEqual([]);
    expect(stale.stderr).toMatch(/node_modules links to .*, whose packages differ from package-lock\.json/);
    expect(ensure(shared).calls).toEqual([]);
  });

  it('fails when the install fails, and leaves no marker', () => {
    const dir = pkg(lock('1.0.0'));
    const r = ensure(dir, { NPM_FAIL: '1' });
    expect(r.status).not.toBe(0);
    expect(r.calls).toEqual(['ci --no-audit --no-fund']);
    expect(existsSync(join(dir, 'node_modules/.ringmatch-deps'))).toBe(false);
  });
});
