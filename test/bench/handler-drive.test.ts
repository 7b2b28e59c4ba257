// bench:handler runs: the simulator's request handler driven through its stand-ins for uWebSockets.js's request
// and response (bench/api/handler-drive.ts) answers every signed place and cancel without an error, and reports
// the uWS calls a request makes. A change to what the server asks of uWS's request must reach the stand-in too.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('bench:handler', () => {
  it('drives 2,000 signed requests through the handler with no error answer', async () => {
    const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/api/handler-drive.ts', '--requests=2000'], { timeout: 60_000 });
    expect(stdout).toMatch(/^2000 signed requests \(place \+ cancel alternating\), errors 0$/m);
    expect(stdout).toMatch(/^uWS calls per request: \{.*"cork":1.*\}$/m);
  }, 90_000);
});
