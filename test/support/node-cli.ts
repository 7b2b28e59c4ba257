// How a test, a soak or a benchmark starts `ringmatch start` in a child process: from the sources, tsx runs
// src/cli.ts; from dist/ (a soak or a benchmark built by scripts/ensure-build.mjs), plain node runs the built
// src/cli.js. REPO_ROOT is the directory both paths are relative to (the checkout, or dist/).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Node's arguments before `start …`. */
export const CLI_ARGS: readonly string[] = existsSync(join(REPO_ROOT, 'src/cli.ts')) ? ['--import', 'tsx', 'src/cli.ts'] : ['src/cli.js'];
