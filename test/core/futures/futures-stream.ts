// A seeded stream of futures commands of every kind, driven through a FuturesDriver: orders (limit, market,
// ioc, poc, fok, reduce-only, close, iceberg, dual-mode auto_size), amends, cancels, leverage (isolated and
// cross), margin, risk limits, dual-mode switches, deposits, mark moves, funding, and the liquidator's work
// (cancel the owner's orders, take the position over, trade it out, auto-deleverage what is left). Targets
// (orders to amend or cancel, positions to liquidate) are read from the driver's own exchange, so the stream is
// a function of the seed and the state; the driver's `sent` keeps it for other runners.
import { isLiquidatable } from '../../../src/core/futures/futures-liquidation.js';
import { FuturesFlag } from '../../../src/core/futures/futures-orders.js';
import { PositionSlot } from '../../../src/core/futures/position-store.js';
import { INSURANCE_UID } from '../../../src/core/ledger/futures-funds.js';
import { Side, TimeInForce } from '../../../src/core/matching/order-types.js';
import type { Prng } from '../../../src/core/prng.js';
import { ResultCode } from '../../../src/core/result-code.js';
import type { FuturesDriver } from '../../support/futures-driver.js';

export const STREAM_USERS = [1, 2, 3, 4, 5, 6, 7, 8];
export const CONTRACTS = ['BTC_USDT', 'BTC_USD'] as const;
const CODE: Record<string, string> = { BTC_USDT: 'USDT', BTC_USD: 'BTC' };
const FUND: Record<string, string> = { USDT: '20000', BTC: '0.5' };
/** Users 7 and 8 are thinly funded and mostly on cross margin, so that whole accounts get liquidated too. */
const THIN: Record<string, string> = { USDT: '40', BTC: '0.001' };
const thin = (uid: number): boolean => uid >= 7;

/** What a stream did, per action (accepted / tried), so tests can insist on coverage. */
export type StreamStats = Record<string, [number, number]>;

/** Opening balances, insurance funds (default 3000 USDT and 0.05 BTC) and first marks. */
export function openStream(d: FuturesDriver, insurance: [string, string] = ['3000', '0.05']): void {
  for (const uid of STREAM_USERS) for (const code of ['USDT', 'BTC']) expectOk(d.fund(uid, code, (thin(uid) ? THIN : FUND)[code]!), 'fund');
  expectOk(d.fund(INSURANCE_UID, 'USDT', insurance[0]), 'insurance');
  expectOk(d.fund(INSURANCE_UID, 'BTC', insurance[1]), 'insurance');
  for (const name of CONTRACTS) expectOk(d.prices(name, 5_000_000), 'prices');
}

function expectOk(code: ResultCode, what: string): void {
  if (code !== ResultCode.Ok) throw new Error(`${what}: code ${code}`);
}

export class FuturesStream {
  readonly stats: StreamStats = {};
  /** Recently placed orders: [id, uid, contract]. */
  readonly #orders: [number, number, string][] = [];

  constructor(readonly d: FuturesDriver, readonly rng: Prng) {}

  #count(what: string, code: ResultCode): ResultCode {
    const s = (this.stats[what] ??= [0, 0]);
    s[1]++;
    if (code === ResultCode.Ok) s[0]++;
    return code;
  }

  #tick(name: string): number {
    const ex = this.d.ex;
    return ex.futures.contracts[ex.futures.contractOf(this.d.market[name]!)]!.tick;
  }

  #mark(name: string): number {
    const ex = this.d.ex;
    return ex.futures.mark[ex.futures.contractOf(this.d.market[name]!)]!;
  }

  /** A price on the tick grid within ±`pct`% of the mark. */
  #price(name: string, pct: number): number {
    const t = this.#tick(name);
    const m = this.#mark(name);
    const off = Math.floor((m * pct) / 100);
    return Math.max(1, Math.round((m + this.rng.between(-off, off)) / t)) * t;
  }

  /** One command (or one liquidation sweep); returns the action's name. */
  step(): string {
    const d = this.d;
    const r = this.rng;
    const name = CONTRACTS[r.nextInt(CONTRACTS.length)]!;
    const uid = STREAM_USERS[r.nextInt(STREAM_USERS.length)]!;
    const roll = r.nextInt(100);
    if (roll < 48) return this.#order(uid, name);
    if (roll < 56) {
      const o = this.#orders[this.#orders.length - 1 - r.nextInt(Math.min(20, this.#orders.length) || 1)];
      if (o === undefined) return 'none';
      this.#count('amend', d.amend(o[1], o[2], o[0], r.chance(0.3) ? 0 : r.between(1, 60), r.chance(0.3) ? 0 : this.#price(o[2], 2)));
      return 'amend';
    }
    if (roll < 63) {
      const o = this.#orders[this.#orders.length - 1 - r.nextInt(Math.min(30, this.#orders.length) || 1)];
      if (o === undefined) return 'none';
      this.#count('cancel', d.cancel(o[1], o[2], o[0]));
      return 'cancel';
    }
    if (roll < 65) {
      this.#count('cancelAll', d.cancelAll(uid, name));
      return 'cancelAll';
    }
    if (roll < 70) {
      const lev = thin(uid) && r.chance(0.7) ? 0 : [0, 0, 1, 2, 3, 5, 10, 20, 50, 100][r.nextInt(10)]!;
      this.#count(lev === 0 ? 'cross' : 'leverage', d.leverage(uid, name, lev, lev === 0 ? [0, 10, 30, 100][r.nextInt(4)]! : 0));
      return 'leverage';
    }
    if (roll < 74) {
      const ex = d.ex;
      const dual = ex.futures.isDual(uid, ex.currencyIndex(CODE[name]!));
      const slot = dual ? (r.chance(0.5) ? PositionSlot.DualLong : PositionSlot.DualShort) : PositionSlot.Single;
      const units = BigInt(r.between(1, name === 'BTC_USDT' ? 50_000_000_000 : 500_000)) * (r.chance(0.4) ? -1n : 1n);
      this.#count('margin', d.margin(uid, name, units, slot));
      return 'margin';
    }
    if (roll < 76) {
      const base = name === 'BTC_USDT' ? 1_000_000n * 10n ** 8n : 100n * 10n ** 8n;
      const step = name === 'BTC_USDT' ? 1_000_000n * 10n ** 8n : 50n * 10n ** 8n;
      this.#count('riskLimit', d.riskLimit(uid, name, base + step * BigInt(r.nextInt(4))));
      return 'riskLimit';
    }
    if (roll < 79) {
      const code = CODE[name]!;
      this.#count('dualMode', d.dualMode(uid, code, !d.ex.futures.isDual(uid, d.ex.currencyIndex(code))));
      return 'dualMode';
    }
    if (roll < 80) {
      if (thin(uid)) return 'none';
      this.#count('deposit', d.fund(uid, CODE[name]!, CODE[name] === 'USDT' ? '500' : '0.01'));
      return 'deposit';
    }
    if (roll < 90) {
      const m = this.#mark(name);
      const move = Math.floor((m * r.between(-300, 300)) / 10_000);
      this.#count('prices', d.prices(name, Math.max(100_000, m + move), m, r.between(-100_000, 100_000)));
      this.sweep();
      return 'prices';
    }
    if (roll < 93) {
      this.#count('funding', d.funding(name, r.between(-300_000, 300_000)));
      return 'funding';
    }
    this.sweep();
    return 'sweep';
  }

  #order(uid: number, name: string): string {
    const d = this.d;
    const r = this.rng;
    const ex = d.ex;
    const dual = ex.futures.isDual(uid, ex.currencyIndex(CODE[name]!));
    const size = r.between(1, 60) * (r.chance(0.5) ? 1 : -1);
    const kind = r.nextInt(10);
    let code: ResultCode;
    let what: string;
    switch (kind) {
      case 0: what = 'market'; code = d.order(uid, name, size, 0, { tif: r.chance(0.7) ? TimeInForce.Ioc : TimeInForce.Fok }); break;
      case 1: what = 'ioc'; code = d.order(uid, name, size, this.#price(name, 1), { tif: TimeInForce.Ioc }); break;
      case 2: what = 'poc'; code = d.order(uid, name, size, this.#price(name, 1), { tif: TimeInForce.Poc }); break;
      case 3: what = 'fok'; code = d.order(uid, name, size, this.#price(name, 1), { tif: TimeInForce.Fok }); break;
      case 4: what = 'reduceOnly'; code = d.order(uid, name, size, this.#price(name, 1), { flags: FuturesFlag.ReduceOnly, tif: r.chance(0.5) ? TimeInForce.Gtc : TimeInForce.Ioc }); break;
      case 5:
        if (dual) {
          what = 'autoSize';
          code = d.order(uid, name, 0, this.#price(name, 1), { flags: FuturesFlag.AutoSize, side: r.chance(0.5) ? Side.Buy : Side.Sell });
        } else {
          what = 'close';
          code = d.order(uid, name, 0, r.chance(0.5) ? 0 : this.#price(name, 1), { flags: FuturesFlag.Close, tif: TimeInForce.Ioc });
        }
        break;
      case 6: what = 'iceberg'; code = d.order(uid, name, size * 3, this.#price(name, 1), { iceberg: r.between(1, 10) }); break;
      default: what = 'limit'; code = d.order(uid, name, size, this.#price(name, 1.5)); break;
    }
    this.#count(what, code);
    if (code === ResultCode.Ok) {
      this.#orders.push([d.lastOrderId, uid, name]);
      if (this.#orders.length > 200) this.#orders.splice(0, 100);
    }
    return what;
  }

  /**
   * The liquidator's round: every liquidatable position has its owner's orders cancelled, is taken over, and the
   * liquidator trades it out through the book; what it cannot sell is auto-deleveraged (sometimes later).
   */
  sweep(): void {
    const d = this.d;
    const ex = d.ex;
    const P = ex.futures.positions;
    for (const name of CONTRACTS) {
      const ci = ex.futures.contractOf(d.market[name]!);
      for (const row of P.openRows(d.market[name])) {
        if (P.size[row] === 0 || !isLiquidatable(ex, ci, row)) continue;
        const uid = P.uid[row]!;
        const cross = P.leverage[row] === 0;
        for (const other of CONTRACTS) if (other === name || (cross && CODE[other] === CODE[name])) d.cancelAll(uid, other);
        const code = this.#count('liquidate', d.liquidate(uid, name, P.slot[row]));
        if (code !== ResultCode.Ok) continue;
        this.#count('liquidatorOrder', d.liquidatorOrder(name));
      }
      if (d.size(INSURANCE_UID, name) !== 0 && this.rng.chance(0.6)) this.#count('deleverage', d.deleverage(name));
    }
  }
}
