// A program a test needs from a Debian package (nats-server, chromium): found on the usual paths or PATH; when
// missing, installed with apt if this process runs as root (where apt can); otherwise the caller's set-up fails
// with the command to run. Never a skip.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface DebianProgram {
  /** Command names tried on PATH, in order. */
  readonly names: readonly string[];
  /** Absolute paths tried first. */
  readonly paths: readonly string[];
  /** The Debian package that brings it. */
  readonly pkg: string;
  /** What else satisfies the test, for the error message ("a nats-server 2.9+ binary"). */
  readonly otherwise: string;
}

/** The program's path, installing its package with apt when missing and possible (at most 10 minutes). */
export function debianProgram(p: DebianProgram): string {
  const find = (): string | undefined => {
    for (const path of p.paths) if (existsSync(path)) return path;
    try {
      return execFileSync('sh', ['-c', p.names.map((n) => `command -v ${n}`).join(' || ')], { encoding: 'utf8' }).trim().split('\n')[0] || undefined;
    } catch {
      return undefined;
    }
  };
  const found = find();
  if (found !== undefined) return found;
  const install = `apt-get update && apt-get install -y ${p.pkg}`;
  if (process.getuid?.() === 0) {
    try {
      execFileSync('sh', ['-c', `${install} >/dev/null 2>&1`], { timeout: 600_000 });
    } catch {
      // Reported below.
    }
    const now = find();
    if (now !== undefined) return now;
  }
  throw new Error(`${p.names[0]} is not installed and could not be installed here: run \`sudo ${install}\` (Debian/Ubuntu), or put ${p.otherwise} on PATH`);
}
