// Installs dependencies when node_modules is missing or older than package-lock.json,
// so `npm test`, `npm start` and the benchmarks work on a fresh clone.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const marker = 'node_modules/.package-lock.json';
const stale = !existsSync(marker) || statSync(marker).mtimeMs < statSync('package-lock.json').mtimeMs;
if (stale) {
  process.stderr.write('ringmatch: installing dependencies (npm ci)…\n');
  execSync('npm ci --no-audit --no-fund', { stdio: ['ignore', 2, 2] });
}
