// Socket authentication: the subscription signature (either event on unsubscribe) and the order-entry
// signature (ccxt's compact JSON or Python's separators), with the REST checks after it.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ResultCode } from '../../../src/core/result-code.js';
import { KeyStore, permsFrom } from '../../../src/api/auth/key-store.js';
import { pythonJson, verifyApiRequest, verifySubscription } from '../../../src/api/ws/ws-auth.js';

const keys = new KeyStore();
keys.addAccount(1, 0);
keys.addAccount(2, 0, true);
keys.addKey({ key: 'k', secret: 's', uid: 1, mode: 1, perms: permsFrom('all'), ipWhitelist: [] });
keys.addKey({ key: 'ro', secret: 'r', uid: 1, mode: 1, perms: permsFrom([{ name: 'spot', read_only: true }]), ipWhitelist: [] });
keys.addKey({ key: 'fx', secret: 'f', uid: 1, mode: 1, perms: permsFrom([{ name: 'futures', read_only: true }]), ipWhitelist: [] });
keys.addKey({ key: 'w', secret: 'w', uid: 1, mode: 1, perms: permsFrom([{ name: 'wallet' }]), ipWhitelist: [] });
keys.addKey({ key: 'ip', secret: 'i', uid: 1, mode: 1, perms: permsFrom('all'), ipWhitelist: ['10.0.0.1'] });
keys.addKey({ key: 'lk', secret: 'l', uid: 2, mode: 1, perms: permsFrom('all'), ipWhitelist: [] });

const T = 1_700_000_000;
const ctx = { keys, windowS: 60, nowS: T + 5, ip: '127.0.0.1' };
const hmac = (secret: string, text: string): string => createHmac('sha512', secret).update(text).digest('hex');
const sub = (secret: string, channel: string, event: string, time = T): string => hmac(secret, `channel=${channel}&event=${event}&time=${time}`);

describe('verifySubscription', () => {
  it('accepts Gate\'s signature and answers the key', () => {
    const r = verifySubscription(ctx, { KEY: 'k', SIGN: sub('s', 'spot.orders', 'subscribe') }, 'spot.orders', 'subscribe', T);
    expect(r.code).toBe(ResultCode.Ok);
    expect(r.key?.uid).toBe(1);
  });

  it('accepts an unsubscribe signed with subscribe or unsubscribe, a subscribe only with subscribe', () => {
    for (const e of ['subscribe', 'unsubscribe']) {
      expect(verifySubscription(ctx, { KEY: 'k', SIGN: sub('s', 'spot.orders', e) }, 'spot.orders', 'unsubscribe', T).code).toBe(ResultCode.Ok);
    }
    expect(verifySubscription(ctx, { KEY: 'k', SIGN: sub('s', 'spot.orders', 'unsubscribe') }, 'spot.orders', 'subscribe', T).code).toBe(ResultCode.InvalidSignature);
  });

  it.each([
    ['missing auth', undefined, T, ResultCode.MissingHeader],
    ['unknown key', { KEY: 'nope', SIGN: 'ab' }, T, ResultCode.InvalidKey],
    ['stale time', { KEY: 'k', SIGN: sub('s', 'spot.orders', 'subscribe', T - 600) }, T - 600, ResultCode.RequestExpired],
    ['other channel signed', { KEY: 'k', SIGN: sub('s', 'spot.balances', 'subscribe') }, T, ResultCode.InvalidSignature],
    ['not hex', { KEY: 'k', SIGN: 'zz' }, T, ResultCode.InvalidSignature],
    ['no spot permission', { KEY: 'w', SIGN: sub('w', 'spot.orders', 'subscribe') }, T, ResultCode.Forbidden],
    ['IP not whitelisted', { KEY: 'ip', SIGN: sub('i', 'spot.orders', 'subscribe') }, T, ResultCode.IpForbidden],
    ['locked account', { KEY: 'lk', SIGN: sub('l', 'spot.orders', 'subscribe') }, T, ResultCode.AccountLocked],
  ])('rejects %s', (_name, auth, time, code) => {
    expect(verifySubscription(ctx, auth, 'spot.orders', 'subscribe', time).code).toBe(code);
  });

  it('lets a read-only key subscribe', () => {
    expect(verifySubscription(ctx, { KEY: 'ro', SIGN: sub('r', 'spot.orders', 'subscribe') }, 'spot.orders', 'subscribe', T).code).toBe(ResultCode.Ok);
  });
});

describe('verifyApiRequest', () => {
  const param = { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.1', price: '100', nested: [1, { a: 'b' }] };
  const sign = (secret: string, json: string, channel = 'spot.order_place', ts = String(T)): string => hmac(secret, `api\n${channel}\n${json}\n${ts}`);

  it('accepts compact JSON (ccxt) and Python separators (gatews)', () => {
    expect(verifyApiRequest(ctx, 'k', sign('s', JSON.stringify(param)), String(T), 'spot.order_place', param, true).code).toBe(ResultCode.Ok);
    expect(pythonJson(param)).toBe('{"currency_pair": "BTC_USDT", "side": "buy", "amount": "0.1", "price": "100", "nested": [1, {"a": "b"}]}');
    expect(verifyApiRequest(ctx, 'k', sign('s', pythonJson(param)), T, 'spot.order_place', param, true).code).toBe(ResultCode.Ok);
    expect(verifyApiRequest(ctx, 'k', sign('s', '{}', 'spot.login'), String(T), 'spot.login', undefined, false).code).toBe(ResultCode.Ok);
  });

  it('rejects a wrong channel, stale timestamps and writes with read-only keys', () => {
    expect(verifyApiRequest(ctx, 'k', sign('s', JSON.stringify(param), 'spot.order_amend'), String(T), 'spot.order_place', param, true).code)
      .toBe(ResultCode.InvalidSignature);
    expect(verifyApiRequest(ctx, 'k', sign('s', '{}', 'spot.login', String(T - 999)), String(T - 999), 'spot.login', {}, false).code)
      .toBe(ResultCode.RequestExpired);
    expect(verifyApiRequest(ctx, 'k', 'x', 'soon', 'spot.login', {}, false).code).toBe(ResultCode.RequestExpired);
    expect(verifyApiRequest(ctx, undefined, 'x', String(T), 'spot.login', {}, false).code).toBe(ResultCode.MissingHeader);
    const ro = sign('r', JSON.stringify(param));
    expect(verifyApiRequest(ctx, 'ro', ro, String(T), 'spot.order_place', param, true).code).toBe(ResultCode.ReadOnly);
    expect(verifyApiRequest(ctx, 'ro', ro, String(T), 'spot.order_place', param, false).code).toBe(ResultCode.Ok);
  });

  it('checks the permission group it is given (futures order entry needs futures)', () => {
    const login = sign('r', '{}', 'futures.login');
    expect(verifyApiRequest(ctx, 'ro', login, String(T), 'futures.login', {}, false, 'futures').code).toBe(ResultCode.Forbidden);
    expect(verifyApiRequest(ctx, 'k', sign('s', '{}', 'futures.login'), String(T), 'futures.login', {}, false, 'futures').code).toBe(ResultCode.Ok);
    const fx = sign('f', JSON.stringify(param), 'futures.order_place');
    expect(verifyApiRequest(ctx, 'fx', fx, String(T), 'futures.order_place', param, true, 'futures').code).toBe(ResultCode.ReadOnly);
    expect(verifyApiRequest(ctx, 'fx', fx, String(T), 'futures.order_place', param, false, 'futures').code).toBe(ResultCode.Ok);
  });
});

describe('private subscriptions need the endpoint\'s permission group', () => {
  it('a futures-only key subscribes on a futures endpoint, not on the spot one; a spot-only key the reverse', () => {
    const auth = (key: string, secret: string, channel: string): { KEY: string; SIGN: string } => ({ KEY: key, SIGN: sub(secret, channel, 'subscribe') });
    expect(verifySubscription(ctx, auth('fx', 'f', 'futures.orders'), 'futures.orders', 'subscribe', T, 'futures').code).toBe(ResultCode.Ok);
    expect(verifySubscription(ctx, auth('fx', 'f', 'spot.orders'), 'spot.orders', 'subscribe', T).code).toBe(ResultCode.Forbidden);
    expect(verifySubscription(ctx, auth('ro', 'r', 'futures.orders'), 'futures.orders', 'subscribe', T, 'futures').code).toBe(ResultCode.Forbidden);
    expect(verifySubscription(ctx, auth('ro', 'r', 'spot.orders'), 'spot.orders', 'subscribe', T).code).toBe(ResultCode.Ok);
    expect(verifySubscription(ctx, auth('fx', 'f', 'futures.orders'), 'futures.orders', 'subscribe', T, 'delivery').code).toBe(ResultCode.Forbidden);
  });
});
