// The dashboard for tests that run from the sources: its files built once per test process into a temporary
// directory (scripts/build-ui.mjs, the build `npm run build` runs into dist/ui/), which tests hand to the server
// (`startSimulator(config, {dashboard: dir})`), so they never rebuild the checkout's dist/ under other tests.
// And Debian's chromium for the browser tests: installed with apt when missing (as root, where apt can); otherwise
// the set-up fails with the command to run. Never skipped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildUi } from '../../scripts/build-ui.mjs';
import { debianProgram } from './debian-package.js';

let built: Promise<string> | undefined;

/** A directory holding the built dashboard (index.html and its hashed assets), removed when the process exits. */
export function builtDashboard(): Promise<string> {
  built ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringmatch-ui-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    await buildUi(dir);
    return dir;
  })();
  return built;
}

/** Debian's chromium, installed with apt when missing and possible. */
export function chromiumBinary(): string {
  return debianProgram({ names: ['chromium', 'chromium-browser'], paths: ['/usr/bin/chromium', '/usr/bin/chromium-browser'],
    pkg: 'chromium', otherwise: 'a chromium binary' });
}
