// Identity survives a restart: users added through the control plane (with their keys and opening
// balances), sub-accounts with their profiles and lock state, and sub-account API keys created, updated and
// deleted come back from the journal on either runner: every read route answers as before, the keys
// authenticate (or fail) as before, and the state hash equals the one before and the journal replay's.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayJournal } from '../../src/backtest/journal-replay.js';
import type { Simulator } from '../../src/main.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { plainFetch, signedFetch, startTestSimulator } from '../api/http-helpers.js';

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'ringmatch-identity-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

type J = Record<string, unknown>;
const CLOCK = { type: 'sim', start_ms: Date.UTC(2026, 3, 1) } as const;

const post = (s: Simulator, path: string, body: J) =>
  plainFetch(s.server.port, path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const signed = (s: Simulator, method: string, path: string, body?: J, key = 'k1', secret = 's1') =>
  signedFetch(s.server.port, { method, path, body: body === undefined ? '' : JSON.stringify(body), key, secret });

/** What a client reads back about identity, as plain JSON. */
async function readBack(s: Simulator, subs: number[], user: { key: string; secret: string }): Promise<unknown[]> {
  const out: unknown[] = [];
  out.push((await signed(s, 'GET', '/api/v4/sub_accounts?type=0')).body);
  for (const uid of subs) {
    out.push((await signed(s, 'GET', `/api/v4/sub_accounts/${uid}`)).body);
    out.push((await signed(s, 'GET', `/api/v4/sub_accounts/${uid}/keys`)).body);
  }
  const u = await signedFetch(s.server.port, { path: '/api/v4/spot/accounts', key: user.key, secret: user.secret });
  out.push([u.status, u.body]);
  return out;
}

describe('identity across a restart', () => {
  for (const runner of ['inline', 'threaded'] as const) {
    it(`${runner} runner: control-plane users, sub-accounts, their lock state and keys come back`, async () => {
      const path = join(dir, `${runner}.journal`);
      const config: Partial<SimulatorConfig> = { clock: CLOCK, engine: { runner, journal: path } };
      const first = await startTestSimulator(config);
      let before: unknown[];
      let hash: string;
      let user: { uid: number; key: string; secret: string };
      const subs: number[] = [];
      const subKeys: { key: string; secret: string }[] = [];
      try {
        user = (await post(first, '/sim/users', { balances: { spot: { USDT: '1234.5', BTC: '0.25' } } })).body as typeof user;
        expect(user.key).toMatch(/^[0-9a-f]{32}$/);
        for (const name of ['desk_a', 'desk_b']) {
          const r = await signed(first, 'POST', '/api/v4/sub_accounts', { login_name: name, remark: `${name} remark`, email: `${name}@x.io` });
          expect(r.status).toBe(201);
          subs.push((r.body as J).user_id as number);
        }
        for (let i = 0; i < 3; i++) {
          const r = await signed(first, 'POST', `/api/v4/sub_accounts/${subs[0]}/keys`, { name: `key${i}`, perms: [{ name: 'spot', read_only: i === 1 }] });
          expect(r.status).toBe(200);
          subKeys.push(r.body as { key: string; secret: string });
        }
        expect((await signed(first, 'PUT', `/api/v4/sub_accounts/${subs[0]}/keys/${subKeys[1]!.key}`,
          { name: 'renamed', perms: [{ name: 'wallet' }], ip_whitelist: ['10.0.0.1'] })).status).toBe(204);
        expect((await signed(first, 'DELETE', `/api/v4/sub_accounts/${subs[0]}/keys/${subKeys[2]!.key}`)).status).toBe(204);
        expect((await signed(first, 'POST', `/api/v4/sub_accounts/${subs[1]}/lock`)).status).toBe(204);
        // A sub-account created with a taken login name is refused and leaves nothing.
        expect((await signed(first, 'POST', '/api/v4/sub_accounts', { login_name: 'DESK_A' })).status).toBe(400);
        before = await readBack(first, subs, user);
        hash = ((await plainFetch(first.server.port, '/sim/state_hash')).body as J).state_hash as string;
      } finally {
        await first.close();
      }
      const again = await startTestSimulator(config);
      let after: string;
      try {
        expect(await readBack(again, subs, user)).toEqual(before);
        expect(((await plainFetch(again.server.port, '/sim/state_hash')).body as J).state_hash).toBe(hash);
        const as = (k: { key: string; secret: string }) => signedFetch(again.server.port, { path: '/api/v4/spot/accounts', key: k.key, secret: k.secret });
        expect((await as(subKeys[0]!)).status).toBe(200);
        expect((await as(subKeys[1]!)).body).toMatchObject({ label: 'IP_FORBIDDEN' });
        expect((await as(subKeys[2]!)).body).toMatchObject({ label: 'INVALID_KEY' });
        const u = (await as(user)).body as { currency: string; available: string }[];
        expect(u.find((b) => b.currency === 'USDT')?.available).toBe('1234.5');
        // The locked sub-account stays locked; ids and names continue without reuse.
        const next = await signed(again, 'POST', '/api/v4/sub_accounts', { login_name: 'desk_c' });
        expect(next.status).toBe(201);
        expect(subs).not.toContain((next.body as J).user_id);
        expect((await signed(again, 'POST', '/api/v4/sub_accounts', { login_name: 'desk_b' })).status).toBe(400);
        expect((await post(again, '/sim/users', { uid: user.uid })).body).toMatchObject({ label: 'INVALID_PARAM_VALUE' });
        after = ((await plainFetch(again.server.port, '/sim/state_hash')).body as J).state_hash as string;
      } finally {
        await again.close();
      }
      expect(after).not.toBe(hash);
      expect((await replayJournal(path)).report.state_hash).toBe(after);
    });
  }
});
