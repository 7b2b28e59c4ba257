// Input the front must refuse rather than guess at: Content-Types that are not JSON, and unbounded client
// strings echoed back in answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isJsonContentType } from '../../src/api/http/api-request.js';
import type { Simulator } from '../../src/main.js';
import { plainFetch, signedFetch, startTestSimulator } from './http-helpers.js';

let sim: Simulator;
let port: number;

beforeAll(async () => {
  sim = await startTestSimulator();
  port = sim.server.port;
});
afterAll(async () => { await sim.close(); });

const label = (r: { body: unknown }): unknown => (r.body as { label?: string }).label;
const stateHash = async (): Promise<string> => ((await plainFetch(port, '/sim/state_hash')).body as { state_hash: string }).state_hash;
const ORDER = JSON.stringify({ currency_pair: 'BTC_USDT', side: 'buy', amount: '0.001', price: '1000', text: 't-ct' });

describe('Content-Type', () => {
  it('reads application/json with or without a UTF-8 charset, in any case', () => {
    for (const ok of ['application/json', 'Application/JSON', ' application/json ', 'application/json; charset=utf-8',
      'application/json;charset=UTF-8', 'application/json; charset="utf-8"', 'application/json; charset=utf8; x=y']) {
      expect(isJsonContentType(ok), ok).toBe(true);
    }
    for (const bad of ['', 'application/jsonx', 'application/json-seq', 'text/json', 'application/x-json', 'application/json5',
      'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/json; charset', 'text/plain, application/json']) {
      expect(isJsonContentType(bad), bad).toBe(false);
    }
  });

  it('refuses a body sent as application/jsonx or with charset=utf-16, and changes nothing', async () => {
    const before = await stateHash();
    for (const ct of ['application/jsonx', 'application/json; charset=utf-16', 'application/json-patch+json']) {
      const r = await signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders', body: ORDER, headers: { 'Content-Type': ct } });
      expect([r.status, label(r)], ct).toEqual([415, 'INVALID_CONTENT_TYPE']);
    }
    expect(await stateHash()).toBe(before);
    const ok = await signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders', body: ORDER, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
    expect(ok.status).toBe(201);
  });
});
