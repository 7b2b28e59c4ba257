// Memory the threaded runner must not keep: once a command's callback has run, the engine holds no reference
// to it (nor to what it closes over: in the server, the reply and its socket wrapper). Checked with weak
// references and a forced full GC, for commands answered in R1 (funds, rejections) and after the book (R2).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../src/core/clock.js';
import type { Command } from '../../src/core/command.js';
import { ThreadedEngine } from '../../src/engine/threaded-engine.js';
import { ENGINE_DEFINITION, EngineStream } from '../support/engine-stream.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('ThreadedEngine retention', () => {
  it('drops every callback (and what it closes over) once it has been called', async () => {
    const s = new EngineStream(5);
    const commands: Command[] = [...s.openings()];
    for (let i = 0; i < 2_000; i++) commands.push(s.next());
    const engine = ThreadedEngine.start(ENGINE_DEFINITION, { clock: new SimClock(1_767_225_600_000_000), shards: 1, intake: 4096 });
    const refs: WeakRef<object>[] = [];
    try {
      let called = 0;
      // Closures made in a function of their own, so nothing on this stack frame keeps them alive.
      const submitAll = (): void => {
        for (const c of commands) {
          const reply = { payload: new Uint8Array(64) };
          refs.push(new WeakRef(reply));
          engine.submit(c, () => { if (reply.payload.length === 64) called++; });
        }
      };
      submitAll();
      await engine.run();
      expect(called).toBe(commands.length);
      await new Promise((resolve) => setImmediate(resolve)); // WeakRef targets stay alive until the job ends
      gc();
      const alive = refs.filter((r) => r.deref() !== undefined).length;
      expect(alive).toBe(0);
    } finally {
      await engine.close();
    }
  });
});
