// Position and margin arithmetic of the futures core against the big.js model (test/support/futures-model.ts) on
// random portfolios: seeded streams of maker/taker fills, mark moves, leverage changes (isolated and cross), margin
// added and funding, on a linear (USDT) and an inverse (BTC) contract. After every step each position's size,
// basis, entry price, margin, realised figures (pnl_pnl, pnl_fee, pnl_fund), its Position figures (value, uPnL,
// initial and maintenance margin, liquidation price, leverage) and each account's total, available and cross
// figures must equal the model's exactly; the ledger and futures invariants must hold.
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { crossFigures, positionFigures } from '../../../src/core/futures/account-figures.js';
import { FuturesFlag } from '../../../src/core/futures/futures-orders.js';
import { PositionSlot, positionHoldKey } from '../../../src/core/futures/position-store.js';
import { entryTicks } from '../../../src/core/futures/risk.js';
import { INSURANCE_UID } from '../../../src/core/ledger/futures-funds.js';
import { TimeInForce } from '../../../src/core/matching/order-types.js';
import { Prng } from '../../../src/core/prng.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { FuturesDriver, futuresDefinition, INVERSE, LINEAR } from '../../support/futures-driver.js';
import {
  emptyPosition, entryPrice, figures, fill, fromUnits, fundingOwed, type ModelContract, modelContract, type ModelPosition,
  priceOf, roundHalfUp, ticksOf, unitsOf,
} from '../../support/futures-model.js';

const USERS = [1, 2, 3, 4, 5];
/** Users in dual (hedge) mode for both settle currencies. */
const DUAL = [4, 5];
const slotsOf = (uid: number): number[] => (DUAL.includes(uid) ? [PositionSlot.DualLong, PositionSlot.DualShort] : [PositionSlot.Single]);
const FUNDS: Record<string, string> = { USDT: '2000000', BTC: '40' };

interface Model {
  readonly contracts: Record<string, ModelContract>;
  readonly pos: Map<string, ModelPosition>;
  /** Account totals per `${uid}:${code}` and the insurance fund per code. */
  readonly total: Map<string, Big>;
  readonly fund: Map<string, Big>;
  readonly mark: Record<string, number>;
}

const CODE: Record<string, string> = { BTC_USDT: 'USDT', BTC_USD: 'BTC' };
const RISK_BASE: Record<string, string> = { BTC_USDT: LINEAR.risk_limit_base!, BTC_USD: INVERSE.risk_limit_base! };

function position(m: Model, uid: number, name: string, slot = 0): ModelPosition {
  const key = `${uid}:${name}:${slot}`;
  let p = m.pos.get(key);
  if (p === undefined) {
    p = emptyPosition(10, new Big(RISK_BASE[name]!));
    m.pos.set(key, p);
  }
  return p;
}

function addTotal(m: Model, uid: number, code: string, v: Big): void {
  const key = `${uid}:${code}`;
  m.total.set(key, (m.total.get(key) ?? new Big(0)).plus(v));
}

/** Free balance of (uid, code) in the model: total − Σ position margins (no order rests between steps). */
function modelAvailable(m: Model, uid: number, code: string): Big {
  let v = m.total.get(`${uid}:${code}`) ?? new Big(0);
  for (const [key, p] of m.pos) {
    const [u, name] = key.split(':') as [string, string, string];
    if (Number(u) === uid && CODE[name] === code) v = v.minus(p.margin);
  }
  return v;
}

/** expect(actual).toBe(expected) only when they differ (vitest's expect costs more than the comparison). */
function same(actual: unknown, expected: unknown, what: string): void {
  if (actual !== expected) expect(actual, what).toBe(expected);
}

function compare(d: FuturesDriver, m: Model, step: number): void {
  const ex = d.ex;
  const L = ex.ledger.futures;
  const P = ex.futures.positions;
  for (const [key, p] of m.pos) {
    const [u, name, slot] = key.split(':') as [string, string, string];
    const uid = Number(u);
    const c = m.contracts[name]!;
    const code = CODE[name]!;
    const row = d.row(uid, name, Number(slot));
    const at = `step ${step} uid ${uid} ${name}`;
    expect(row, at).toBeGreaterThanOrEqual(0);
    const ci = ex.futures.contractOf(d.market[name]!);
    const k = ex.futures.contracts[ci]!;
    same(P.size[row], p.n, `${at} size`);
    same(P.basis[row], unitsOf(c, p.basis), `${at} basis`);
    same(L.held(positionHoldKey(row)) < 0n ? 0n : L.held(positionHoldKey(row)), unitsOf(c, p.margin), `${at} margin`);
    same(P.pnlPnl[row], unitsOf(c, p.pnlPnl), `${at} pnl_pnl`);
    same(P.pnlFee[row], unitsOf(c, p.pnlFee), `${at} pnl_fee`);
    same(P.pnlFund[row], unitsOf(c, p.pnlFund), `${at} pnl_fund`);
    const entry = roundHalfUp(entryPrice(c, p), c.priceScale + 8);
    same(entryTicks(k, p.n, P.basis[row]!, 8), BigInt(entry.times(new Big(10).pow(c.priceScale + 8)).toFixed(0)), `${at} entry`);
    const cross = p.leverage === 0;
    const f = figures(c, p, priceOf(c, m.mark[name]!), cross ? modelAvailable(m, uid, code) : new Big(0));
    const g = positionFigures(ex, row);
    same(g.value, unitsOf(c, f.value), `${at} value`);
    same(g.upnl, unitsOf(c, f.upnl), `${at} upnl`);
    same(g.initial, unitsOf(c, f.initial), `${at} initial`);
    same(g.maintenance, unitsOf(c, f.maintenance), `${at} maintenance`);
    same(g.mmr, BigInt(f.mmr.times(1e8).toFixed(0)), `${at} mmr`);
    same(g.leverage, f.leverage, `${at} leverage`);
    same(g.liqPrice, ticksOf(c, f.liqPrice), `${at} liq_price`);
  }
  for (const code of ['USDT', 'BTC']) {
    const cur = ex.currencyIndex(code);
    const c = Object.values(m.contracts).find((k) => CODE[k.name] === code)!;
    for (const uid of USERS) {
      const at = `step ${step} uid ${uid} ${code}`;
      const total = unitsOf(c, m.total.get(`${uid}:${code}`) ?? new Big(0));
      const free = unitsOf(c, modelAvailable(m, uid, code));
      same(L.total(uid, cur), total, `${at} total`);
      same(L.available(uid, cur), free, `${at} available`);
      const a = crossFigures(ex, uid, cur);
      let upnl = new Big(0);
      let crossUpnl = new Big(0);
      let crossMaint = new Big(0);
      let isolated = new Big(0);
      for (const [key, p] of m.pos) {
        const [u, name] = key.split(':') as [string, string, string];
        if (Number(u) !== uid || CODE[name] !== code) continue;
        const f = figures(m.contracts[name]!, p, priceOf(m.contracts[name]!, m.mark[name]!));
        upnl = upnl.plus(f.upnl);
        if (p.leverage === 0) {
          crossUpnl = crossUpnl.plus(f.upnl);
          crossMaint = crossMaint.plus(f.maintenance);
        } else {
          isolated = isolated.plus(p.margin);
        }
      }
      same(a.total, total, `${at} figures total`);
      same(a.orderMargin, 0n, `${at} order margin`);
      same(a.positionMargin, total - free, `${at} position margin`);
      same(a.upnl, unitsOf(c, upnl), `${at} upnl`);
      same(a.maintenance, unitsOf(c, crossMaint), `${at} cross maintenance`);
      same(a.marginBalance, total - unitsOf(c, isolated) + unitsOf(c, crossUpnl), `${at} margin balance`);
    }
    same(L.insuranceFund(cur), unitsOf(c, m.fund.get(code)!), `step ${step} ${code} insurance`);
  }
  ex.assertInvariants();
}

/** One seeded portfolio run; returns how many fills, closes and fundings it made (so the test can insist on coverage). */
function run(seed: number, steps: number): Record<string, number> {
  const d = new FuturesDriver(futuresDefinition(USERS.length));
  const contracts = {
    BTC_USDT: modelContract(LINEAR, d.ex.ledger.futures.scaleOf(d.ex.currencyIndex('USDT'))),
    BTC_USD: modelContract(INVERSE, d.ex.ledger.futures.scaleOf(d.ex.currencyIndex('BTC'))),
  };
  const m: Model = { contracts, pos: new Map(), total: new Map(), fund: new Map(), mark: { BTC_USDT: 5_000_000, BTC_USD: 5_000_000 } };
  for (const uid of USERS) {
    for (const code of ['USDT', 'BTC']) {
      expect(d.fund(uid, code, FUNDS[code]!)).toBe(ResultCode.Ok);
      addTotal(m, uid, code, new Big(FUNDS[code]!));
    }
  }
  for (const uid of DUAL) for (const code of ['USDT', 'BTC']) expect(d.dualMode(uid, code, true)).toBe(ResultCode.Ok);
  expect(d.fund(INSURANCE_UID, 'USDT', '100000')).toBe(ResultCode.Ok);
  expect(d.fund(INSURANCE_UID, 'BTC', '5')).toBe(ResultCode.Ok);
  m.fund.set('USDT', new Big('100000'));
  m.fund.set('BTC', new Big('5'));
  for (const name of Object.keys(contracts)) expect(d.prices(name, m.mark[name]!)).toBe(ResultCode.Ok);
  const rng = new Prng(seed);
  const names = Object.keys(contracts) as (keyof typeof contracts)[];
  const stats = { fills: 0, closes: 0, fundings: 0, cross: 0, dualReduces: 0, removals: 0, riskLimits: 0, refused: 0 };
  for (let step = 0; step < steps; step++) {
    const name = names[rng.nextInt(names.length)]!;
    const c = contracts[name];
    const tick = d.ex.futures.contracts[d.ex.futures.contractOf(d.market[name]!)]!.tick;
    const roll = rng.nextInt(100);
    if (roll < 65) {
      // A maker rests, a taker crosses it at the maker's price: both fill completely.
      const maker = USERS[rng.nextInt(USERS.length)]!;
      let taker = USERS[rng.nextInt(USERS.length)]!;
      if (taker === maker) taker = maker === 5 ? 1 : maker + 1;
      const k = rng.between(1, 40);
      const price = (Math.round(m.mark[name]! / tick) + rng.between(-20, 20)) * tick;
      const makerBuys = rng.chance(0.5);
      // Each side's order: a dual-mode user's goes to the leg its side (and reduce-only flag) names, and may reduce
      // a leg that holds at least k; a single-mode user's is a plain order on its one position.
      const parties = ([[maker, makerBuys, true], [taker, !makerBuys, false]] as const).map(([uid, buy, isMaker]) => {
        if (!DUAL.includes(uid)) return { uid, buy, isMaker, slot: PositionSlot.Single, flags: 0 };
        const reduced = buy ? PositionSlot.DualShort : PositionSlot.DualLong;
        const reduce = rng.chance(0.4) && Math.abs(position(m, uid, name, reduced).n) >= k;
        return { uid, buy, isMaker, slot: reduce ? reduced : buy ? PositionSlot.DualLong : PositionSlot.DualShort, flags: reduce ? FuturesFlag.ReduceOnly : 0 };
      });
      const [mk, tk] = parties as [typeof parties[0], typeof parties[0]];
      // A position near its liquidation price may not grow (PRICE_OVER_LIQUIDATION and the like): then nothing
      // trades, and the maker's resting order is cancelled again.
      const placed = d.order(maker, name, makerBuys ? k : -k, price, { flags: mk.flags });
      const makerId = d.lastOrderId;
      const took = placed === ResultCode.Ok ? d.order(taker, name, makerBuys ? -k : k, price, { tif: TimeInForce.Ioc, flags: tk.flags }) : placed;
      if (took !== ResultCode.Ok) {
        expect([ResultCode.PriceOverLiquidation, ResultCode.LiquidateImmediately], `step ${step} order`).toContain(took);
        if (placed === ResultCode.Ok) expect(d.cancel(maker, name, makerId)).toBe(ResultCode.Ok);
        stats.refused++;
        compare(d, m, step);
        continue;
      }
      const P = priceOf(c, price);
      for (const { uid, buy, isMaker, slot, flags } of [tk, mk]) {
        const p = position(m, uid, name, slot);
        const out = fill(c, p, buy, k, P, isMaker);
        addTotal(m, uid, CODE[name]!, out.pnl.minus(out.fee));
        if (out.closed > 0) stats.closes++;
        if (flags !== 0) stats.dualReduces++;
      }
      stats.fills++;
    } else if (roll < 80) {
      // Within ±2% of 50000: leverage ≤ 20 keeps every position clear of liquidation (the scenarios test that).
      const mark = Math.min(5_100_000, Math.max(4_900_000, m.mark[name]! + rng.between(-100_000, 100_000)));
      expect(d.prices(name, mark), `step ${step} prices`).toBe(ResultCode.Ok);
      m.mark[name] = mark;
    } else if (roll < 85) {
      const uid = USERS[rng.nextInt(USERS.length)]!;
      const lev = [0, 0, 2, 5, 10, 20][rng.nextInt(6)]!;
      const limit = lev === 0 ? [0, 5, 20][rng.nextInt(3)]! : 0;
      expect(d.leverage(uid, name, lev, limit), `step ${step} leverage`).toBe(ResultCode.Ok);
      // Leverage applies to both legs in dual mode. Lowering an isolated leverage tops the margin up to ⌈value(mark) / L⌉.
      for (const slot of slotsOf(uid)) {
        const p = position(m, uid, name, slot);
        if (lev > 0 && p.n !== 0) {
          const need = figures(c, { ...p, leverage: lev }, priceOf(c, m.mark[name]!)).value.div(lev).round(c.settleScale, Big.roundUp);
          if (need.gt(p.margin)) p.margin = need;
        }
        p.leverage = lev;
        if (lev === 0) p.crossLimit = limit;
      }
      if (lev === 0) stats.cross++;
    } else if (roll < 88) {
      // Risk limits: the tier sets the maintenance rate and (cross without a limit) the leverage.
      const uid = USERS[rng.nextInt(USERS.length)]!;
      const j = rng.nextInt(4);
      const limit = name === 'BTC_USDT' ? new Big(1_000_000).times(j + 1) : new Big(100).plus(50 * j);
      expect(d.riskLimit(uid, name, unitsOf(c, limit)), `step ${step} risk limit`).toBe(ResultCode.Ok);
      for (const slot of slotsOf(uid)) position(m, uid, name, slot).riskLimit = limit;
      stats.riskLimits++;
    } else if (roll < 93) {
      const uid = USERS[rng.nextInt(USERS.length)]!;
      const slot = slotsOf(uid)[rng.nextInt(slotsOf(uid).length)]!;
      const p = m.pos.get(`${uid}:${name}:${slot}`);
      // Adds, then half the time takes back up to twice as much (some of it refused as too much).
      let units = BigInt(rng.between(1, 1_000_000));
      let code = d.margin(uid, name, units, slot);
      if (code === ResultCode.Ok && p !== undefined && p.leverage > 0) p.margin = p.margin.plus(fromUnits(c, units));
      if (rng.chance(0.5)) {
        units = -BigInt(rng.between(1, 2 * Number(units)));
        code = d.margin(uid, name, units, slot);
      }
      if (p === undefined || p.n === 0) expect(code, `step ${step} margin`).toBe(ResultCode.PositionEmpty);
      else if (p.leverage === 0) expect(code, `step ${step} margin`).toBe(ResultCode.PositionCrossMargin);
      else if (units > 0n) {
        expect(code, `step ${step} margin`).toBe(ResultCode.Ok);
      } else {
        // What may leave: the margin above ⌈value(mark) / L⌉, counting a loss of the uPnL (not a gain).
        const f = figures(c, p, priceOf(c, m.mark[name]!));
        const spare = p.margin.plus(f.upnl.lt(0) ? f.upnl : 0).minus(f.value.div(p.leverage).round(c.settleScale, Big.roundUp));
        const take = fromUnits(c, -units);
        expect(code, `step ${step} margin`).toBe(take.gt(spare) ? ResultCode.RemoveTooMuch : ResultCode.Ok);
        if (code === ResultCode.Ok) {
          p.margin = p.margin.minus(take);
          stats.removals++;
        }
      }
    } else {
      // Funding: every open position pays or receives value(mark) × rate; the insurance fund sits between.
      const next = d.ex.futures.nextFunding[d.ex.futures.contractOf(d.market[name]!)]!;
      d.sim.advanceTo(Math.max(d.sim.nowUs(), next * 1e6));
      const rate = rng.between(-300_000, 300_000);
      expect(d.funding(name, rate), `step ${step} funding`).toBe(ResultCode.Ok);
      const M = priceOf(c, m.mark[name]!);
      const r = new Big(rate).div(1e8);
      // Payers first, then receivers, as the core does: the fund always covers receivers here.
      for (const pass of [true, false]) {
        for (const [key, p] of m.pos) {
          const [u, nm] = key.split(':') as [string, string, string];
          if (nm !== name || p.n === 0) continue;
          const owed = fundingOwed(c, p.n, M, r);
          if (owed.gt(0) !== pass || owed.eq(0)) continue;
          if (p.leverage > 0) {
            // Isolated: funding moves the position's margin (paid from it first, then available).
            p.margin = owed.gt(p.margin) ? new Big(0) : p.margin.minus(owed);
          }
          p.pnlFund = p.pnlFund.minus(owed);
          addTotal(m, Number(u), CODE[name]!, owed.neg());
          m.fund.set(CODE[name]!, m.fund.get(CODE[name]!)!.plus(owed));
        }
      }
      stats.fundings++;
    }
    compare(d, m, step);
  }
  return stats;
}

describe('futures positions against the big.js model', () => {
  for (const seed of [1, 2, 3]) {
    it(`random portfolio, seed ${seed}`, () => {
      const s = run(seed, 300);
      expect(s.fills).toBeGreaterThan(120);
      expect(s.closes).toBeGreaterThan(40);
      expect(s.fundings).toBeGreaterThan(3);
      expect(s.cross).toBeGreaterThan(3);
      expect(s.dualReduces).toBeGreaterThan(3);
      expect(s.removals).toBeGreaterThan(0);
      expect(s.riskLimits).toBeGreaterThan(3);
    });
  }
});
