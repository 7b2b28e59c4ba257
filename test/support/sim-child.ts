// A simulator in a process of its own, for tests that SIGKILL it: the HTTP tests' config with the JSON overrides
// of argv[2], on 127.0.0.1 and an ephemeral port; prints "port <n>" once it listens, then serves until killed.
//
// Usage: node --import tsx test/support/sim-child.ts '<overrides JSON>'
import { startTestSimulator } from '../api/http-helpers.js';

const sim = await startTestSimulator(JSON.parse(process.argv[2] ?? '{}') as Parameters<typeof startTestSimulator>[0]);
process.stdout.write(`port ${sim.server.port}\n`);
