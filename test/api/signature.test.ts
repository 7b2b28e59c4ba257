// Gate's APIv4 signature: the server's check agrees with an independent node:crypto computation.
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSha512, hmacSha512Hex, queryCandidates, signRequest, verifySignature } from '../../src/api/auth/signature.js';

const EMPTY_SHA512 = 'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e';

describe('signature', () => {
  it('signs METHOD, path, decoded query, body hash and timestamp with HMAC-SHA512', () => {
    const body = '{"currency_pair":"BTC_USDT","side":"buy","amount":"0.001","price":"50000"}';
    const payload = ['POST', '/api/v4/spot/orders', '', createHash('sha512').update(body).digest('hex'), '1795222990'].join('\n');
    const expected = createHmac('sha512', 'test-secret').update(payload).digest('hex');
    expect(signRequest('test-secret', 'POST', '/api/v4/spot/orders', '', body, '1795222990')).toBe(expected);
    expect(verifySignature('test-secret', 'POST', '/api/v4/spot/orders', '', body, '1795222990', expected)).toBe(true);
  });

  it('hashes an empty body to the SHA-512 of the empty string', () => {
    const payload = ['GET', '/api/v4/spot/accounts', '', EMPTY_SHA512, '1795223014.967'].join('\n');
    const sign = createHmac('sha512', 's').update(payload).digest('hex');
    expect(verifySignature('s', 'GET', '/api/v4/spot/accounts', '', '', '1795223014.967', sign)).toBe(true);
  });

  it('accepts a signature over the percent-decoded query of the URL', () => {
    const raw = 'currency_pair=BTC_USDT&text=t-a%20b%2Cc%3Ad%2Fe%2Bf';
    const decoded = 'currency_pair=BTC_USDT&text=t-a b,c:d/e+f';
    const sign = createHmac('sha512', 's').update(['GET', '/api/v4/spot/my_trades', decoded, EMPTY_SHA512, '1'].join('\n')).digest('hex');
    expect(queryCandidates(raw)).toContain(decoded);
    expect(verifySignature('s', 'GET', '/api/v4/spot/my_trades', raw, '', '1', sign)).toBe(true);
  });

  it('rejects another secret, method, body or a malformed SIGN', () => {
    const sign = signRequest('s', 'GET', '/api/v4/spot/accounts', '', '', '1');
    expect(verifySignature('t', 'GET', '/api/v4/spot/accounts', '', '', '1', sign)).toBe(false);
    expect(verifySignature('s', 'POST', '/api/v4/spot/accounts', '', '', '1', sign)).toBe(false);
    expect(verifySignature('s', 'GET', '/api/v4/spot/accounts', '', '{}', '1', sign)).toBe(false);
    expect(verifySignature('s', 'GET', '/api/v4/spot/accounts', '', '', '1', 'zz')).toBe(false);
    expect(verifySignature('s', 'GET', '/api/v4/spot/accounts', '', '', '1', `${sign.slice(0, 127)}g`)).toBe(false);
    expect(verifySignature('s', 'GET', '/api/v4/spot/accounts', '', '', '1', `g${sign.slice(1)}`)).toBe(false);
  });

  it('computes HMAC-SHA512 from its definition exactly as node:crypto does, for short, long and non-ASCII secrets', () => {
    const secrets = ['', 's', 'k'.repeat(127), 'k'.repeat(128), 'k'.repeat(129), 'x'.repeat(300), 'clé-秘密-🔑'];
    const messages = ['', 'POST\n/api/v4/spot/orders\n\nabc\n1', 'ünïcödé ' + 'm'.repeat(1000)];
    for (const secret of secrets) {
      for (const message of messages) {
        const want = createHmac('sha512', secret).update(message).digest('hex');
        expect(hmacSha512(secret, message).toString('hex')).toBe(want);
        expect(hmacSha512(secret, message).toString('hex')).toBe(want);
        // The string path (ASCII secrets) and the Buffer path (others), each twice: the pads are cached.
        expect(hmacSha512Hex(secret, message)).toBe(want);
        expect(hmacSha512Hex(secret, message)).toBe(want);
      }
    }
  });

  it('accepts an upper-case or mixed-case hex SIGN, for ASCII and non-ASCII secrets', () => {
    for (const secret of ['s', 'clé-秘密-🔑', 'x'.repeat(300)]) {
      const sign = signRequest(secret, 'GET', '/api/v4/spot/accounts', '', '', '1');
      const mixed = [...sign].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join('');
      expect(verifySignature(secret, 'GET', '/api/v4/spot/accounts', '', '', '1', sign.toUpperCase())).toBe(true);
      expect(verifySignature(secret, 'GET', '/api/v4/spot/accounts', '', '', '1', mixed)).toBe(true);
      // One digit off anywhere fails.
      for (const at of [0, 63, 127]) {
        const flipped = sign.slice(0, at) + (sign[at] === '0' ? '1' : '0') + sign.slice(at + 1);
        expect(verifySignature(secret, 'GET', '/api/v4/spot/accounts', '', '', '1', flipped)).toBe(false);
      }
    }
  });

  it('survives a malformed percent-encoding', () => {
    expect(queryCandidates('a=%E0%A4%A')).toEqual(['a=%E0%A4%A']);
  });
});
