// Sub-account management and sub-account API keys over HTTP: creation, listing, lock/unlock and what a
// frozen sub-account may still do, key create/list/get/update/delete, the key cap and the change delay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../src/main.js';
import { type Caller, caller, expectRejected, FUNDS_CONFIG, type J } from './funds-helpers.js';

let sim: Simulator;
let call: Caller;

beforeAll(async () => {
  sim = await startSimulator(FUNDS_CONFIG, { host: '127.0.0.1', port: 0 });
  call = caller(sim);
});
afterAll(async () => { await sim.close(); });

describe('sub-accounts', () => {
  it('creates a sub-account (201) that is a new ledger user of the main account', async () => {
    const r = await call('POST', '/sub_accounts', { login_name: 'desk_1', remark: 'grid bot', password: 'p', email: 'a@b.c' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ login_name: 'desk_1', remark: 'grid bot', email: 'a@b.c', state: 1, type: 1 });
    expect(r.body.password).toBeUndefined();
    const uid = r.body.user_id as number;
    expect(sim.gateway.exchange.ledger.mainOf(uid)).toBe(10001);
    expect(sim.keys.account(uid)).toEqual({ mainUid: 10001, locked: false });
    const defaults = await call('POST', '/sub_accounts', { login_name: 'desk_2' });
    expect(defaults.body).toMatchObject({ login_name: 'desk_2', remark: '', email: '' });
    expect(defaults.body.user_id).not.toBe(uid);
  });

  it('rejects a bad, taken or missing login_name and a sub-account creating sub-accounts', async () => {
    const bad = async (body: J, label: string, key?: [string, string]): Promise<void> => {
      const r = await call('POST', '/sub_accounts', body, undefined, key);
      expect([r.status, r.body.label]).toEqual([400, label]);
    };
    const before = sim.keys.subAccountsOf(10001).length;
    await bad({}, 'MISSING_REQUIRED_PARAM');
    await bad({ login_name: 'has space' }, 'INVALID_PARAM_VALUE');
    await bad({ login_name: 'dash-no' }, 'INVALID_PARAM_VALUE');
    await bad({ login_name: 7 }, 'INVALID_PARAM_VALUE');
    await bad({ login_name: 'DESK_1' }, 'INVALID_PARAM_VALUE');
    await bad({ login_name: 'ok_name', remark: 5 }, 'INVALID_PARAM_VALUE');
    await bad({ login_name: 'nested' }, 'INVALID_PARAM_VALUE', ['sub1', 'ss1']);
    expect(sim.keys.subAccountsOf(10001).length).toBe(before);
  });

  it('lists (type 0 / 1), gets, and answers SUB_ACCOUNT_NOT_FOUND for unknown or foreign ids', async () => {
    const all = (await call('GET', '/sub_accounts', undefined, 'type=0')).body as unknown as J[];
    expect(all.map((s) => s.user_id)).toContain(20001);
    expect(all.every((s) => s.type === 1)).toBe(true);
    expect(((await call('GET', '/sub_accounts')).body as unknown as J[]).length).toBe(all.length);
    expect((await call('GET', '/sub_accounts', undefined, 'type=2')).body.label).toBe('INVALID_PARAM_VALUE');
    expect((await call('GET', '/sub_accounts/20001')).body).toMatchObject({ user_id: 20001, login_name: 'sub_20001', state: 1, create_time: 0 });
    for (const id of ['20002', '10005', '10001', '99999', 'abc']) {
      const r = await call('GET', `/sub_accounts/${id}`);
      expect([r.status, r.body.label], id).toEqual([404, 'SUB_ACCOUNT_NOT_FOUND']);
    }
    expect(((await call('GET', '/sub_accounts', undefined, undefined, ['k2', 's2'])).body as unknown as J[]).map((s) => s.user_id)).toEqual([20002]);
  });

  it('reports the unified mode of each sub-account', async () => {
    const modes = (await call('GET', '/sub_accounts/unified_mode')).body as unknown as J[];
    expect(modes).toContainEqual({ user_id: 20001, is_unified: false, mode: 'classic' });
  });

  it('locks (204): the sub-account\'s keys and transfers get SUB_ACCOUNT_LOCKED until unlocked', async () => {
    const lock = await call('POST', '/sub_accounts/20001/lock');
    expect(lock.status).toBe(204);
    expect(lock.body).toBeUndefined();
    expect((await call('GET', '/sub_accounts/20001')).body.state).toBe(2);
    const own = await call('GET', '/spot/accounts', undefined, undefined, ['sub1', 'ss1']);
    expect([own.status, own.body.label]).toEqual([403, 'SUB_ACCOUNT_LOCKED']);
    const move = { sub_account: '20001', currency: 'USDT', amount: '1', direction: 'to' };
    await expectRejected(sim, () => call('POST', '/wallet/sub_account_transfers', move), 403, 'SUB_ACCOUNT_LOCKED');
    await expectRejected(sim, () => call('POST', '/wallet/sub_account_transfers', { ...move, direction: 'from' }), 403, 'SUB_ACCOUNT_LOCKED');
    expect((await call('POST', '/sub_accounts/20001/unlock')).status).toBe(204);
    expect((await call('GET', '/spot/accounts', undefined, undefined, ['sub1', 'ss1'])).status).toBe(200);
    expect((await call('POST', '/wallet/sub_account_transfers', move)).status).toBe(200);
    const foreign = await call('POST', '/sub_accounts/20002/lock');
    expect([foreign.status, foreign.body.label]).toEqual([404, 'SUB_ACCOUNT_NOT_FOUND']);
    expect(sim.keys.account(20002)!.locked).toBe(false);
  });

  it('needs the sub_accounts permission', async () => {
    const r = await call('GET', '/sub_accounts', undefined, undefined, ['wallet-only', 'ws']);
    expect([r.status, r.body.label]).toEqual([403, 'FORBIDDEN']);
  });
});

describe('sub-account API keys', () => {
  const spotAccounts = (key: string, secret: string) => call('GET', '/spot/accounts', undefined, undefined, [key, secret]);

  it('creates a key whose secret appears only once, and which authenticates as the sub-account', async () => {
    const r = await call('POST', '/sub_accounts/20001/keys', { name: 'bot', perms: [{ name: 'spot' }, { name: 'wallet', read_only: true }] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ user_id: 20001, mode: 1, name: 'bot', ip_whitelist: [], state: 1,
      perms: [{ name: 'spot', read_only: false }, { name: 'wallet', read_only: true }] });
    const key = r.body.key as string;
    const secret = r.body.secret as string;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect((await spotAccounts(key, secret)).body).toContainEqual({ currency: 'USDT', available: expect.any(String) as string, locked: '0', update_id: 0 });
    const listed = (await call('GET', '/sub_accounts/20001/keys')).body as unknown as J[];
    expect(listed.map((k) => k.key)).toEqual(['sub1', key]);
    expect(listed.every((k) => k.secret === undefined)).toBe(true);
    expect((await call('GET', `/sub_accounts/20001/keys/${key}`)).body).toMatchObject({ key, name: 'bot' });
    const ro = await call('POST', '/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'options', amount: '1' }, undefined, [key, secret]);
    expect([ro.status, ro.body.label]).toEqual([403, 'READ_ONLY']);
  });

  it('updates with PUT (204): omitted perms and ip_whitelist clear them, mode cannot change', async () => {
    const { key, secret } = (await call('POST', '/sub_accounts/20001/keys', { perms: [{ name: 'spot' }] })).body as { key: string; secret: string };
    const put = await call('PUT', `/sub_accounts/20001/keys/${key}`, { name: 'renamed', perms: [{ name: 'spot' }], ip_whitelist: ['10.9.9.9'] });
    expect(put.status).toBe(204);
    expect((await spotAccounts(key, secret)).body.label).toBe('IP_FORBIDDEN');
    expect((await call('PUT', `/sub_accounts/20001/keys/${key}`, { mode: 2 })).body.label).toBe('INVALID_PARAM_VALUE');
    expect((await call('PUT', `/sub_accounts/20001/keys/${key}`, {})).status).toBe(204);
    expect((await call('GET', `/sub_accounts/20001/keys/${key}`)).body).toMatchObject({ name: 'renamed', perms: [], ip_whitelist: [] });
    expect((await spotAccounts(key, secret)).body.label).toBe('FORBIDDEN');
  });

  it('deletes (204): the key no longer authenticates', async () => {
    const { key, secret } = (await call('POST', '/sub_accounts/20001/keys', {})).body as { key: string; secret: string };
    expect((await call('DELETE', `/sub_accounts/20001/keys/${key}`)).status).toBe(204);
    expect((await spotAccounts(key, secret)).body.label).toBe('INVALID_KEY');
    expect((await call('GET', `/sub_accounts/20001/keys/${key}`)).body.label).toBe('NOT_FOUND');
    expect((await call('DELETE', `/sub_accounts/20001/keys/${key}`)).status).toBe(404);
  });

  it('rejects bad key bodies and foreign sub-accounts', async () => {
    const count = ((await call('GET', '/sub_accounts/20001/keys')).body as unknown as J[]).length;
    for (const body of [{ mode: 3 }, { perms: [{ name: 'moon' }] }, { perms: 'all' }, { ip_whitelist: ['1.2.3'] },
      { ip_whitelist: Array.from({ length: 21 }, (_v, i) => `10.0.0.${i}`) }, { name: 5 }]) {
      const r = await call('POST', '/sub_accounts/20001/keys', body);
      expect([r.status, r.body.label], JSON.stringify(body)).toEqual([400, 'INVALID_PARAM_VALUE']);
    }
    expect(((await call('GET', '/sub_accounts/20001/keys')).body as unknown as J[]).length).toBe(count);
    for (const [m, p] of [['POST', '/sub_accounts/20002/keys'], ['GET', '/sub_accounts/20002/keys'], ['GET', '/sub_accounts/20002/keys/sub2'],
      ['PUT', '/sub_accounts/20002/keys/sub2'], ['DELETE', '/sub_accounts/20002/keys/sub2']] as const) {
      const r = await call(m, p, m === 'POST' || m === 'PUT' ? {} : undefined);
      expect([r.status, r.body.label], `${m} ${p}`).toEqual([404, 'SUB_ACCOUNT_NOT_FOUND']);
    }
    expect(sim.keys.get('sub2')).toBeDefined();
  });
});

describe('key limit and change delay (config)', () => {
  it('caps keys per account at api_key_limit', async () => {
    const s = await startSimulator({ ...FUNDS_CONFIG, api_key_limit: 2 }, { host: '127.0.0.1', port: 0 });
    try {
      const c = caller(s);
      expect((await c('POST', '/sub_accounts/20001/keys', {})).status).toBe(200);
      const r = await c('POST', '/sub_accounts/20001/keys', {});
      expect([r.status, r.body.label]).toEqual([400, 'BAD_REQUEST']);
      expect(((await c('GET', '/sub_accounts/20001/keys')).body as unknown as J[]).length).toBe(2);
      expect((await c('DELETE', '/sub_accounts/20001/keys/sub1')).status).toBe(204);
      expect((await c('POST', '/sub_accounts/20001/keys', {})).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('applies key changes after api_key_change_delay_ms', async () => {
    const s = await startSimulator({ ...FUNDS_CONFIG, api_key_change_delay_ms: 150 }, { host: '127.0.0.1', port: 0 });
    try {
      const c = caller(s);
      const { key, secret } = (await c('POST', '/sub_accounts/20001/keys', { perms: [{ name: 'spot' }] })).body as { key: string; secret: string };
      expect((await c('GET', `/sub_accounts/20001/keys/${key}`)).status).toBe(200);
      expect((await c('GET', '/spot/accounts', undefined, undefined, [key, secret])).body.label).toBe('INVALID_KEY');
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 20));
        status = (await c('GET', '/spot/accounts', undefined, undefined, [key, secret])).status;
      }
      expect(status).toBe(200);
      expect((await c('DELETE', `/sub_accounts/20001/keys/${key}`)).status).toBe(204);
      expect((await c('GET', '/spot/accounts', undefined, undefined, [key, secret])).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('rate limit', () => {
  it('allows 80 requests per 10 s per user and sub-account endpoint, then answers TOO_MANY_REQUESTS', async () => {
    const s = await startSimulator({ ...FUNDS_CONFIG, rate_limits: true }, { host: '127.0.0.1', port: 0 });
    try {
      const c = caller(s);
      const statuses: number[] = [];
      for (let i = 0; i < 81; i++) statuses.push((await c('GET', '/sub_accounts/20001')).status);
      expect(statuses.slice(0, 80).every((x) => x === 200)).toBe(true);
      expect(statuses[80]).toBe(429);
      expect((await c('GET', '/sub_accounts')).status).toBe(200);
      expect((await c('GET', '/wallet/sub_account_balances')).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
