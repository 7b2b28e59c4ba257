// Conservation of futures money after every command of long seeded streams (futures-stream.ts): per settle
// currency, users' futures accounts + the platform fee account + the insurance fund + clearing = supply (credits −
// debits), besides the ledger's and the futures core's own invariants (clearing + unbacked = Σ position bases).
// Funding moves money only between positions and the insurance fund: at each funding, what users lose the fund
// gains (payers round up, receivers down, a payer short of funds pays what it has and the fund still pays the
// receivers what it can), and fees and clearing do not move. Each account's history (dnw + pnl + fee + fund)
// adds up to its total.
import { describe, expect, it } from 'vitest';
import { CommandType } from '../../../src/core/command.js';
import type { Exchange } from '../../../src/core/exchange/exchange.js';
import { Prng } from '../../../src/core/prng.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { FuturesDriver, futuresDefinition, T0 } from '../../support/futures-driver.js';
import { StepClock } from '../../support/pipeline-stream.js';
import { FuturesStream, openStream, STREAM_USERS } from './futures-stream.js';

const big = (v: number | bigint): bigint => (typeof v === 'bigint' ? v : BigInt(v));

/** Per settle currency: [Σ users' futures totals, fee account, insurance fund, clearing, supply]. */
function books(ex: Exchange, code: string): [bigint, bigint, bigint, bigint, bigint] {
  const cur = ex.currencyIndex(code);
  const L = ex.ledger.futures;
  let users = 0n;
  for (const uid of STREAM_USERS) users += L.total(uid, cur);
  const c = ex.ledger.conservation()[cur]!;
  return [users, big(c.feeAccount), L.insuranceFund(cur), c.clearing, c.credits - c.debits];
}

describe('futures conservation on random streams', () => {
  // Seed 111 with an all but empty insurance fund: losses neither margin, balance nor fund can pay are carried as
  // `unbacked` (clearing + unbacked = Σ bases), and conservation still holds.
  for (const [seed, insurance] of [[11, undefined], [12, undefined], [13, undefined], [111, ['0.01', '0.00000001']]] as const) {
    it(`after every command, seed ${seed}${insurance === undefined ? '' : ', a tiny insurance fund'}`, () => {
      const d = new FuturesDriver(futuresDefinition(STREAM_USERS.length), { clock: new StepClock(T0, 60_000_000) });
      openStream(d, insurance === undefined ? undefined : [...insurance]);
      const s = new FuturesStream(d, new Prng(seed));
      let fundings = 0;
      let nonZero = 0;
      // Checks after every command the stream submits (a sweep submits several).
      const submit = d.submit.bind(d);
      d.submit = (c) => {
        const type = c.type;
        const before = type === CommandType.FuturesFunding ? ['USDT', 'BTC'].map((k) => books(d.ex, k)) : undefined;
        const code = submit(c);
        d.ex.assertInvariants();
        for (const k of ['USDT', 'BTC']) {
          const [users, fee, fund, clearing, supply] = books(d.ex, k);
          expect(users + fee + fund + clearing, `${k} after command ${type}`).toBe(supply);
          // Gate's account `history` adds up to its total: deposits + realised PnL + fees + funding. A loss a
          // user could not pay is the fund's, not the user's realised PnL.
          const cur = d.ex.currencyIndex(k);
          for (const uid of STREAM_USERS) {
            const a = d.ex.futures.account(uid, cur);
            const total = d.ex.ledger.futures.total(uid, cur);
            if (total !== a.dnw + a.pnl + a.fee + a.fund) expect(total, `${k} history of ${uid} after command ${type}`).toBe(a.dnw + a.pnl + a.fee + a.fund);
          }
        }
        if (before !== undefined && code === ResultCode.Ok) {
          fundings++;
          ['USDT', 'BTC'].forEach((k, i) => {
            const [u0, f0, i0, c0] = before[i]!;
            const [u1, f1, i1, c1] = books(d.ex, k);
            expect(u1 - u0 + (i1 - i0), `${k} funding nets to zero`).toBe(0n);
            expect([f1, c1]).toEqual([f0, c0]);
            if (u1 !== u0) nonZero++;
          });
        }
        return code;
      };
      const started = Date.now();
      for (let i = 0; i < 5000 && Date.now() - started < 12_000; i++) s.step();
      const ok = (k: string): number => s.stats[k]?.[0] ?? 0;
      for (const k of ['market', 'ioc', 'poc', 'fok', 'reduceOnly', 'close', 'iceberg', 'limit', 'amend', 'cancel', 'leverage', 'cross',
        'margin', 'riskLimit', 'dualMode', 'autoSize', 'prices', 'funding', 'liquidate', 'liquidatorOrder', 'deleverage']) {
        expect(ok(k), `${k} accepted ${JSON.stringify(s.stats)}`).toBeGreaterThan(0);
      }
      // Liquidations of every form: isolated, whole cross accounts, dual-mode legs; and ADL closes.
      const L = d.ex.futures.liquidations;
      expect(L.some((l) => l.leverage > 0 && l.slot === 0)).toBe(true);
      expect(L.some((l) => l.leverage === 0)).toBe(true);
      expect(L.some((l) => l.slot !== 0)).toBe(true);
      expect(d.ex.futures.closes.some((r) => r.text === 'adl')).toBe(true);
      expect(fundings).toBeGreaterThan(0);
      if (insurance !== undefined) expect(d.ex.futures.unbacked.some((u) => u > 0n)).toBe(true);
      expect(nonZero).toBeGreaterThan(0);
    });
  }
});
