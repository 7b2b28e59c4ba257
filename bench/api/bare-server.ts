/**
 * The reference: a bare uWebSockets.js hello-world, listening as the simulator does (`App()`, 127.0.0.1, an
 * ephemeral port). `GET`/`DELETE` answer "Hello World!" at once; a request with a body answers the same once
 * the body has been read, so the benchmark's signed order requests can be replayed against it byte for byte.
 * Run as a child of http.bench.ts: reports its port over IPC, answers usage requests (server-usage.ts) and exits
 * when the channel closes.
 */
import { App, us_socket_local_port } from 'uWebSockets.js';
import type { FromServer } from './protocol.js';
import { serveUsage } from './server-usage.js';

serveUsage();

const app = App();
app.any('/*', (res, req) => {
  const method = req.getMethod();
  if (method === 'get' || method === 'delete') {
    res.end('Hello World!');
    return;
  }
  res.onAborted(() => undefined);
  res.onData((_chunk, last) => {
    if (last) res.cork(() => res.end('Hello World!'));
  });
});
app.listen('127.0.0.1', 0, (socket) => {
  if (socket === false) {
    process.stderr.write('bare-server: cannot listen\n');
    process.exit(1);
  }
  const msg: FromServer = { type: 'listening', port: us_socket_local_port(socket) };
  process.send?.(msg);
});
process.on('disconnect', () => process.exit(0));
