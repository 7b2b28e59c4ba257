// npm's `prepare` (run on `npm install` / `npm ci` in a checkout, on an install from git, and before `npm pack`):
// builds what the package ships, the JavaScript (scripts/ensure-build.mjs, about a second) and the type
// declarations (tsc --emitDeclarationOnly, tsconfig.build.json, ten to thirty seconds), into dist/.
// scripts/ensure-deps.mjs sets RINGMATCH_SKIP_DECLARATIONS=1 for the `npm ci` it runs on a fresh clone, so a
// first `npm start` or `npm test` does not wait for declarations nothing there reads (`npm run build` makes them).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const run = (args) => execFileSync(process.execPath, args, { stdio: 'inherit' });
run(['scripts/ensure-build.mjs']);
if (process.env.RINGMATCH_SKIP_DECLARATIONS !== '1') {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  run([tsc, '-p', 'tsconfig.build.json']);
}
