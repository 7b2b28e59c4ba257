// The examples of README.md and docs/ run as written: the code blocks are read from the markdown files here, so
// they cannot drift. The client examples (ccxt, ccxt.pro, gate-api) run against a demo simulator, with only the
// port of `127.0.0.1:8080` replaced by the test's and their `import` lines bound to the same packages; each
// client they build must point every REST section the project's own tests use at the simulator. Each complete
// config file of docs/http.md loads and starts; docs/unified.md's `unified` section validates. The shell commands
// run in doc-commands.it.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ccxt from 'ccxt';
import * as GateApi from 'gate-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { loadConfigFile, validateConfig } from '../../src/sim/config-file.js';
import { DEMO_CONFIG } from '../../src/sim/demo.js';
import { signedFetch } from '../api/http-helpers.js';
import { PRIVATE_GROUPS, PUBLIC_GROUPS } from '../support/clients.js';
import { blocks } from '../support/markdown.js';

interface Client { urls: { api: Record<string, unknown> }; close(): Promise<unknown> }
/** The clients of the example running now, and of every example (closed at the end whatever happened). */
const built: Client[] = [];
const all: Client[] = [];
const record = (c: Client): void => { built.push(c); all.push(c); };
/** ccxt with its gate classes recording each instance an example builds. */
const recording = {
  ...ccxt,
  gate: class extends ccxt.gate { constructor(c: object) { super(c); record(this); } },
  pro: { ...ccxt.pro, gate: class extends ccxt.pro.gate { constructor(c: object) { super(c); record(this); } } },
};
type AsyncFn = new (...args: string[]) => (...a: unknown[]) => Promise<void>;
const AsyncFunction = (Object.getPrototypeOf(async (): Promise<void> => { await Promise.resolve(); }) as { constructor: AsyncFn }).constructor;

/** Runs a client example against port `port`; returns what it logged. */
async function runExample(code: string, port: number): Promise<string[]> {
  const imports = /^import (?:ccxt|\* as GateApi) from '(?:ccxt|gate-api)';\n/gm;
  const body = code.replace(imports, '').replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`);
  expect(body).not.toMatch(/^import /m);
  const logs: string[] = [];
  const log = { log: (...a: unknown[]) => { logs.push(a.map(String).join(' ')); } };
  built.length = 0;
  await new AsyncFunction('ccxt', 'GateApi', 'console', body)(recording, GateApi, log);
  for (const c of built) {
    const api = c.urls.api as { public: Record<string, string>; private: Record<string, string>; spot?: unknown };
    for (const g of PUBLIC_GROUPS) expect(api.public[g], `urls.api.public.${g}`).toBe(`http://127.0.0.1:${port}/api/v4`);
    for (const g of PRIVATE_GROUPS) expect(api.private[g], `urls.api.private.${g}`).toBe(`http://127.0.0.1:${port}/api/v4`);
  }
  expect(built.length).toBeGreaterThan(0);
  return logs;
}

const clientExamples = (file: string, marker: string): string[] => blocks(file).filter((b) => b.lang === 'js' && b.code.includes(marker)).map((b) => b.code);

let demo: Simulator;
const dir = mkdtempSync(join(tmpdir(), 'ringmatch-docs-'));
beforeAll(async () => { demo = await startSimulator(DEMO_CONFIG, { host: '127.0.0.1', port: 0 }); });
afterAll(async () => {
  for (const c of all) await c.close();
  await demo.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('documented client examples', () => {
  // docs/websocket.md has three: spot, the perpetual (its swap urls), options (a public and a private instance).
  const WS_LOGS = [['open'], ['BTC/USDT:USDT BTC/USDT:USDT'], ['true true true']];
  it.each([
    ['README.md', 'ccxt.pro.gate', 0, 1],
    ['docs/websocket.md', 'ccxt.pro.gate', 0, 3],
    ['docs/websocket.md', 'ccxt.pro.gate', 1, 3],
    ['docs/websocket.md', 'ccxt.pro.gate', 2, 3],
    ['docs/http.md', 'new ccxt.gate', 0, 1],
  ])('%s (%s, example %i) runs as written', async (file, marker, index, count) => {
    const examples = clientExamples(file, marker);
    expect(examples).toHaveLength(count);
    const logs = await runExample(examples[index]!, demo.server.port);
    if (file === 'docs/websocket.md') expect(logs).toEqual(WS_LOGS[index]);
  });
});

describe('documented config files', () => {
  const configs = blocks('docs/http.md').filter((b) => b.lang === 'json').map((b) => JSON.parse(b.code) as Record<string, unknown>)
    .filter((c) => c.currency_pairs !== undefined || c.extends !== undefined);

  it('are all found (the complete file, the demo extension, the market maker)', () => {
    expect(configs.map((c) => (c.extends !== undefined ? 'extends' : c.market_maker === false ? 'complete' : 'market maker')))
      .toEqual(['complete', 'extends', 'market maker']);
  });

  it.each(configs.map((c, i) => [i, c] as const))('config %i of docs/http.md loads and starts', async (i, c) => {
    const file = join(dir, `config-${i}.json`);
    writeFileSync(file, JSON.stringify(c));
    const sim = await startSimulator(loadConfigFile(file), { host: '127.0.0.1', port: 0 });
    try {
      const user = sim.config.users!.find((u) => u.keys !== undefined && u.keys.length > 0)!;
      const r = await signedFetch(sim.server.port, { path: '/api/v4/spot/accounts', key: user.keys![0]!.key, secret: user.keys![0]!.secret });
      expect(r.status).toBe(200);
    } finally {
      await sim.close();
    }
  });

  it('docs/unified.md\'s unified section validates', () => {
    const fragments = blocks('docs/unified.md').filter((b) => b.lang === 'json' && b.code.startsWith('"unified"'));
    expect(fragments).toHaveLength(1);
    const pairs = [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 6 }];
    expect(validateConfig({ currency_pairs: pairs, ...JSON.parse(`{${fragments[0]!.code}}`) as object }).unified).toBeDefined();
  });
});
