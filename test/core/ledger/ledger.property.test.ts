// Differential test: Ledger (integers, narrow numbers and wide BigInts) against ReferenceLedger (big.js decimals)
// on seeded random streams; codes, every balance and every hold compared after every operation.
import { describe, expect, it } from 'vitest';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import type { Ledger } from '../../../src/core/ledger/ledger.js';
import { CURRENCIES, MARKETS, makeLedger, USERS } from '../../support/ledger-fixtures.js';
import { ReferenceLedger, refText } from '../../support/ledger-reference.js';
import { applyToLedger, applyToReference, LedgerStream, STREAM_KINDS, STREAM_UIDS } from '../../support/ledger-stream.js';

const SEEDS = [1, 0x5eed, 20240611];
const OPS = 2000;

function makeReference(): ReferenceLedger {
  const r = new ReferenceLedger();
  for (const c of CURRENCIES) r.registerCurrency(c.code, c.scale, c.maxSupply);
  for (const m of MARKETS) r.registerMarket(m.market, m.spec.base, m.spec.quote);
  for (const [uid, main] of USERS) r.addUser(uid, main);
  return r;
}

function expectSame(step: number, l: Ledger, r: ReferenceLedger): void {
  const where = `after operation ${step}`;
  const accounts: [number, number, number][] = [[0, AccountKind.Spot, 0]];
  for (const uid of STREAM_UIDS) for (const [kind, sub] of STREAM_KINDS) accounts.push([uid, kind, sub]);
  for (const [uid, kind, sub] of accounts) {
    for (const c of CURRENCIES) {
      const got = l.balanceText(uid, kind, sub, c.code)!;
      const want = r.get(uid, kind, sub, c.code);
      if (got.available !== refText(want.available) || got.locked !== refText(want.locked)) {
        expect(`${uid}/${kind}/${sub} ${c.code} ${got.available} ${got.locked}`, where)
          .toBe(`${uid}/${kind}/${sub} ${c.code} ${refText(want.available)} ${refText(want.locked)}`);
      }
    }
  }
  expect(l.holdCount, where).toBe(r.holds.size);
  for (const [id, h] of r.holds) expect(l.format(h.pays, l.heldFor(id)!), `${where}: hold ${id}`).toBe(refText(h.remaining));
}

describe('Ledger against the big.js reference', () => {
  for (const seed of SEEDS) {
    it(`agrees on every code, balance and hold (seed ${seed})`, () => {
      const l = makeLedger({ accountBookCapacity: 4096 });
      const r = makeReference();
      const stream = new LedgerStream(seed, l);
      const seen = new Map<number, number>();
      let t = 1_700_000_000_000_000;
      for (let step = 0; step < OPS; step++) {
        const op = stream.next();
        t += 1000;
        const code = applyToLedger(l, t, op);
        expect(code, `operation ${step}: ${JSON.stringify(op, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`)
          .toBe(applyToReference(r, op));
        stream.observe(op, code);
        seen.set(code, (seen.get(code) ?? 0) + 1);
        l.assertInvariants();
        expectSame(step, l, r);
      }
      // The stream must exercise success and the main rejections.
      for (const code of [0, -2001, -2002, -2006, -2007, -2009, -1004]) expect(seen.get(code) ?? 0, `code ${code}`).toBeGreaterThan(0);
    });
  }
});
