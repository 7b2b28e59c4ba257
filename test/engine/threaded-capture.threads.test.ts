// A snapshot capture on the threaded gateway while commands keep arriving: intake pauses, the shards are asked
// for their books, and everything completes. Found by `npm run soak:server -- --journal`: with commands waiting
// in intake and none in flight, the drive loop awaited a promise that resolves at once, spun in microtasks and
// starved the process (the shards' answer never arrived; HTTP, health and SIGTERM all went unanswered). The
// scenario runs in a child process (test/support/capture-under-load-child.ts) so that a regression fails
// here, bounded, instead of hanging the test run.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const BOUND_MS = 30_000;

function runChild(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/capture-under-load-child.ts'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const timer = setTimeout(() => child.kill('SIGKILL'), BOUND_MS);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

describe('ThreadedGateway capture under load', () => {
  it('completes the capture and every command submitted around it', async () => {
    const r = await runChild();
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^captured \d+ 401\n$/);
    expect(r.code).toBe(0);
  }, BOUND_MS + 10_000);
});
