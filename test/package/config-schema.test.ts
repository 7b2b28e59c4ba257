// schemas/config.schema.json (shipped as `ringmatch/config.schema.json`, for editors and config linters): ajv
// compiles it in strict mode; it accepts the demo, the fixture's config and every config the docs show; and it
// agrees with the simulator's validator (src/sim/config-file.ts, the source of the field-named errors) on what
// is wrong: for each broken config below both reject, and ajv's deepest error, mapped to the validator's field
// names (`users[0].keys[1].perms`), names the same field.
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/sim/config-file.js';
import { DEMO_CONFIG } from '../../src/sim/demo.js';
import { fixtureConfig } from '../../src/testing/start-exchange.js';
import { blocks } from '../support/markdown.js';

const schema = JSON.parse(readFileSync('schemas/config.schema.json', 'utf8')) as object;
const ajv = new Ajv({ allErrors: true, strict: true });
const check = ajv.compile(schema);

/** ajv's instancePath (`/users/0/keys/1`) and error as the validator's field path (`users[0].keys[1]`). */
function fieldOf(e: ErrorObject): string {
  let path = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((p, s) => (/^[0-9]+$/.test(s) ? `${p}[${s}]` : p === '' ? s : `${p}.${s}`), '');
  const extra = (e.params as { additionalProperty?: string; missingProperty?: string });
  const child = extra.additionalProperty ?? extra.missingProperty;
  if (child !== undefined) path = path === '' ? child : `${path}.${child}`;
  return path;
}

/** The field ajv's errors point at: the deepest one (a `oneOf` of boolean or object fails in both branches). */
function fieldOfErrors(errors: readonly ErrorObject[]): string {
  const named = errors.filter((e) => !['oneOf', 'anyOf', 'if'].includes(e.keyword)).map(fieldOf);
  return named.reduce((a, b) => (b.split(/[.[]/).length > a.split(/[.[]/).length ? b : a));
}

const pair = { id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 6 };
const minimal = { currency_pairs: [pair], users: [{ uid: 1, keys: [{ key: 'k', secret: 's' }], balances: { spot: { USDT: '100' } } }] };

describe('schemas/config.schema.json', () => {
  it('accepts the demo, the fixture config and the docs\' configs', () => {
    const docs = ['docs/http.md', 'docs/futures.md', 'docs/wallet.md', 'docs/sub-accounts.md', 'docs/replay.md', 'docs/scale-out.md'].flatMap((f) => blocks(f))
      .filter((b) => b.lang === 'json' && /^\{/.test(b.code)).map((b) => JSON.parse(b.code) as Record<string, unknown>)
      .filter((c) => c.currency_pairs !== undefined || c.extends !== undefined);
    expect(docs.length).toBeGreaterThanOrEqual(3);
    const withSchema = { $schema: './node_modules/ringmatch/schemas/config.schema.json', ...minimal };
    for (const c of [DEMO_CONFIG, fixtureConfig(), minimal, withSchema, { extends: 'demo' }, ...docs]) {
      expect(validateConfig(structuredClone(c))).toBeDefined();
      expect(check(c), JSON.stringify(check.errors)).toBe(true);
    }
  });

  const broken: [string, Record<string, unknown>][] = [
    ['an unknown top-level field', { ...minimal, colour: 'blue' }],
    ['no currency_pairs', { users: [] }],
    ['a pair without amount_precision', { currency_pairs: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2 }] }],
    ['a precision out of range', { currency_pairs: [{ ...pair, precision: 13 }] }],
    ['a lower-case base', { currency_pairs: [{ ...pair, base: 'btc' }] }],
    ['a uid of zero', { currency_pairs: [pair], users: [{ uid: 0 }] }],
    ['a key without a secret', { currency_pairs: [pair], users: [{ uid: 1, keys: [{ key: 'k' }] }] }],
    ['an unknown permission', { currency_pairs: [pair], users: [{ uid: 1, keys: [{ key: 'k', secret: 's', perms: [{ name: 'moon' }] }] }] }],
    ['an unknown user field', { currency_pairs: [pair], users: [{ uid: 1, nickname: 'x' }] }],
    ['a port out of range', { ...minimal, port: 70000 }],
    ['an unknown clock type', { ...minimal, clock: { type: 'lunar' } }],
    ['an unknown runner', { ...minimal, engine: { runner: 'turbo' } }],
    ['a bad fsync', { ...minimal, engine: { fsync: 'always' } }],
    ['a rate-limit scale of zero', { ...minimal, rate_limits: { scale: 0 } }],
    ['a VIP level above 16', { currency_pairs: [pair], users: [{ uid: 1, vip_level: 17 }] }],
    ['a market maker that is a string', { ...minimal, market_maker: 'yes' }],
    ['an unknown extends', { extends: 'prod' }],
  ];

  it.each(broken)('rejects %s, naming the field the validator names', (_what, c) => {
    expect(check(c)).toBe(false);
    const field = fieldOfErrors(check.errors!);
    expect(() => validateConfig(c)).toThrow(new RegExp(`^config: ${field.replace(/[.[\]]/g, '\\$&')}: `));
  });
});
