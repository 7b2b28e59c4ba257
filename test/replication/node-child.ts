// A node of the replicated log in a process of its own, for tests that SIGKILL or SIGSTOP it: the HTTP tests'
// config with `engine` of argv[2] (JSON), on 127.0.0.1:argv[3]; `--follow` as argv[4] starts it as a follower.
// Prints "ready" once it serves, and its log lines on stderr.
//
// Usage: node --import tsx test/replication/node-child.ts '<engine JSON>' <port> [--follow]
import { startNode } from '../../src/sim/follower-node.js';
import { TEST_CONFIG } from '../api/http-helpers.js';

const [engineJson, portArg, follow] = process.argv.slice(2);
const port = Number(portArg);
const node = await startNode({ ...TEST_CONFIG, port, engine: JSON.parse(engineJson!) as NonNullable<typeof TEST_CONFIG.engine> },
  { host: '127.0.0.1', port, follow: follow === '--follow', log: (m) => process.stderr.write(`${m}\n`) });
process.stdout.write('ready\n');
process.on('SIGTERM', () => void node.close().then(() => process.exit(0)));
