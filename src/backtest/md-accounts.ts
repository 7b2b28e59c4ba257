/**
 * Per-user results of a market-data replay, collected from the exchange-side notes (at exchange time, before
 * any latency): orders, fills by role, fees, and sampled series for the charts. Balances and PnL at the end
 * come from the ledger itself (exact integers, BigInt for the mark-to-market product); the sampled equity
 * series are floats for drawing only.
 *
 * Maximum drawdown: the largest fall of PnL (as reported: quote change plus base change marked at the
 * tick-floored mid) from its running peak, which starts at 0, so the opening holdings' own price moves do
 * not count. Exact, sampled every `sample_us` (that interval stays fixed when the chart series thin
 * themselves out) and once more at the final mark. Cost per sample: two ledger reads and a few BigInt
 * operations per user.
 *
 * On a perpetual (`perp`), a user's base is 0 and its quote is its futures account's equity in the settle
 * currency (total + unrealised PnL at the mark), so PnL and drawdown are the equity's; fees are in the settle
 * currency whatever the side.
 */
import { crossFigures } from '../core/futures/account-figures.js';
import { AccountKind } from '../core/ledger/account-kinds.js';
import { Side } from '../core/matching/order-types.js';
import { formatUnits } from '../core/units.js';
import type { L2Book } from './l2-book.js';
import type { MarketSim, OrderNote } from './market-sim.js';

const MAX_POINTS = 2000;
const MAX_FILLS = 5000;

class UserStats {
  orders = 0;
  rejected = 0;
  cancelRejected = 0;
  placedLots = 0;
  makerFills = 0;
  takerFills = 0;
  makerLots = 0;
  takerLots = 0;
  buyLots = 0;
  sellLots = 0;
  /** Fees in units of the base (buys) and quote (sells) currencies. */
  feeBase = 0;
  feeQuote = 0;
  finished: Record<string, number> = {};
}

export interface FillPoint { readonly t: number; readonly uid: number; readonly side: number; readonly price: number; readonly lots: number; readonly role: string }

export class MdAccounts {
  readonly users: readonly number[];
  readonly stats = new Map<number, UserStats>();
  readonly fills: FillPoint[] = [];
  fillsDropped = 0;
  /** Sampled series: time, mid (ticks), and per user base and quote totals (units). */
  readonly series: { t: number[]; mid: number[]; base: number[][]; quote: number[][] };
  #interval: number;
  #nextSample = -1;
  readonly #riskInterval: number;
  #nextRisk = -1;
  /** Per user (index as `users`): running peak and largest drawdown of PnL, units of 10^-equityScale. */
  readonly #peak: bigint[];
  readonly #drawdown: bigint[];
  readonly #opening = new Map<number, { base: bigint; quote: bigint }>();
  /** A perpetual replay (see the module header); set before `open`. */
  perp = false;

  constructor(users: readonly number[], sampleUs: number) {
    this.users = users;
    for (const u of users) this.stats.set(u, new UserStats());
    this.series = { t: [], mid: [], base: users.map(() => []), quote: users.map(() => []) };
    this.#interval = sampleUs;
    this.#riskInterval = sampleUs;
    this.#peak = users.map(() => 0n);
    this.#drawdown = users.map(() => 0n);
  }

  /** Records the opening balances (after the credits). */
  open(sim: MarketSim): void {
    for (const u of this.users) this.#opening.set(u, this.#totals(sim, u));
  }

  note(n: OrderNote): void {
    const s = this.stats.get(n.uid);
    if (s === undefined) return;
    switch (n.kind) {
      case 'accepted': s.orders++; s.placedLots += n.lots; break;
      case 'rejected': s.rejected++; break;
      case 'cancel_rejected': s.cancelRejected++; break;
      case 'finished': s.finished[String(n.code)] = (s.finished[String(n.code)] ?? 0) + 1; break;
      case 'fill':
        if (n.role === 'maker') { s.makerFills++; s.makerLots += n.lots; } else { s.takerFills++; s.takerLots += n.lots; }
        if (n.side === Side.Buy) s.buyLots += n.lots; else s.sellLots += n.lots;
        if (n.side === Side.Buy && !this.perp) s.feeBase += n.fee; else s.feeQuote += n.fee;
        if (this.fills.length < MAX_FILLS) this.fills.push({ t: n.time, uid: n.uid, side: n.side, price: n.price, lots: n.lots, role: n.role });
        else this.fillsDropped++;
        break;
    }
  }

  /** Samples the series when `time` has passed the next sample point (cheap otherwise). */
  sample(time: number, sim: MarketSim, book: L2Book): void {
    const series = time >= this.#nextSample;
    const risk = time >= this.#nextRisk;
    if (!series && !risk) return;
    if (series) this.#nextSample = time + this.#interval;
    if (risk) this.#nextRisk = time + this.#riskInterval;
    const bid = book.best(Side.Buy);
    const ask = book.best(Side.Sell);
    if (Number.isNaN(bid) || Number.isNaN(ask)) return;
    const s = this.series;
    if (series) { s.t.push(time); s.mid.push((bid + ask) / 2); }
    const mark = Math.floor((bid + ask) / 2);
    this.users.forEach((u, k) => {
      const t = this.#totals(sim, u);
      if (series) { s.base[k]!.push(Number(t.base)); s.quote[k]!.push(Number(t.quote)); }
      if (risk) this.#markPnl(sim, u, k, t, mark);
    });
    if (s.t.length >= MAX_POINTS) this.#decimate();
  }

  /** Folds the PnL of user `uid` (index `k`) with totals `t`, marked at `markTicks`, into its peak and drawdown. */
  #markPnl(sim: MarketSim, uid: number, k: number, t: { base: bigint; quote: bigint }, markTicks: number): void {
    const start = this.#opening.get(uid) ?? { base: 0n, quote: 0n };
    const pnl = equityUnits(sim, t.base - start.base, t.quote - start.quote, markTicks);
    const peak = this.#peak[k]!;
    if (pnl > peak) this.#peak[k] = pnl;
    else if (peak - pnl > this.#drawdown[k]!) this.#drawdown[k] = peak - pnl;
  }

  #decimate(): void {
    const keep = <T>(a: T[]): T[] => a.filter((_, i) => i % 2 === 0);
    const s = this.series;
    s.t = keep(s.t); s.mid = keep(s.mid);
    s.base = s.base.map(keep); s.quote = s.quote.map(keep);
    this.#interval *= 2;
  }

  #totals(sim: MarketSim, uid: number): { base: bigint; quote: bigint } {
    const ex = sim.engine.exchange;
    if (this.perp) {
      const f = crossFigures(ex, uid, ex.futures.settleCur[0]!);
      return { base: 0n, quote: f.total + f.upnl };
    }
    const spec = ex.markets[0]!.spec;
    const one = (cur: string): bigint => {
      const v = ex.ledger.balance(uid, AccountKind.Spot, 0, cur);
      return v === undefined ? 0n : BigInt(v.available) + BigInt(v.locked);
    };
    return { base: one(spec.base), quote: one(spec.quote) };
  }

  /** Per-user report: counts, ratios, fees and exact PnL marked at `markTicks`. @allocates */
  report(sim: MarketSim, markTicks: number): Record<string, unknown>[] {
    const ex = sim.engine.exchange;
    const m = ex.markets[0]!;
    const spec = m.spec;
    const sb = scaleOf(sim, spec.base);
    const sq = scaleOf(sim, spec.quote);
    return this.users.map((u, k) => {
      const s = this.stats.get(u)!;
      const end = this.#totals(sim, u);
      const start = this.#opening.get(u) ?? { base: 0n, quote: 0n };
      const dBase = end.base - start.base;
      const dQuote = end.quote - start.quote;
      const ps = equityScale(sim);
      const pnl = equityUnits(sim, dBase, dQuote, markTicks);
      if (Number.isFinite(markTicks)) this.#markPnl(sim, u, k, end, markTicks);
      const filled = s.makerLots + s.takerLots;
      return {
        uid: u,
        orders: s.orders, rejected: s.rejected, cancel_rejected: s.cancelRejected,
        placed: formatUnits(s.placedLots, m.amountScale),
        filled: formatUnits(filled, m.amountScale),
        fill_ratio: s.placedLots === 0 ? 0 : Number((filled / s.placedLots).toFixed(6)),
        maker_fills: s.makerFills, taker_fills: s.takerFills,
        maker_volume: formatUnits(s.makerLots, m.amountScale), taker_volume: formatUnits(s.takerLots, m.amountScale),
        bought: formatUnits(s.buyLots, m.amountScale), sold: formatUnits(s.sellLots, m.amountScale),
        fees: this.perp ? { [spec.quote]: formatUnits(s.feeQuote, sq) } : { [spec.base]: formatUnits(s.feeBase, sb), [spec.quote]: formatUnits(s.feeQuote, sq) },
        finished: s.finished,
        balances: { [spec.base]: fmtBig(end.base, sb), [spec.quote]: fmtBig(end.quote, sq) },
        position_change: fmtBig(dBase, sb),
        pnl: fmtBig(pnl, ps),
        pnl_currency: spec.quote,
        max_drawdown: fmtBig(this.#drawdown[k]!, ps),
      };
    });
  }
}

/** Decimals of equity and PnL amounts: base units × ticks has scale sb + priceScale, quote units sq. */
function equityScale(sim: MarketSim): number {
  const m = sim.engine.exchange.markets[0]!;
  return Math.max(scaleOf(sim, m.spec.quote), scaleOf(sim, m.spec.base) + m.priceScale);
}

function scaleOf(sim: MarketSim, code: string): number {
  return sim.engine.exchange.definition.currencies.find((c) => c.code === code)!.scale;
}

/** quote + base × mark, exact, in units of 10^-equityScale (a mark that is not finite values base at 0). */
function equityUnits(sim: MarketSim, base: bigint, quote: bigint, markTicks: number): bigint {
  const m = sim.engine.exchange.markets[0]!;
  const sq = scaleOf(sim, m.spec.quote);
  const sb = scaleOf(sim, m.spec.base);
  const ps = equityScale(sim);
  const mark = Number.isFinite(markTicks) ? BigInt(markTicks) : 0n;
  return quote * 10n ** BigInt(ps - sq) + base * mark * 10n ** BigInt(ps - sb - m.priceScale);
}

/** An exact decimal string of a BigInt amount at `scale`. */
export function fmtBig(v: bigint, scale: number): string {
  const neg = v < 0n;
  const s = (neg ? -v : v).toString().padStart(scale + 1, '0');
  const int = s.slice(0, s.length - scale);
  const frac = scale === 0 ? '' : s.slice(s.length - scale).replace(/0+$/, '');
  return `${neg ? '-' : ''}${int}${frac === '' ? '' : `.${frac}`}`;
}
