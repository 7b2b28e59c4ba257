/**
 * The options services of the engine clock: the index of each underlying, the mark of each contract, the
 * liquidator and the settlement of expirations. They live at the edge like the futures services
 * (futures-services.ts): they read the exchange, decide and submit ordinary commands through the host, so the
 * journal holds every index, mark, liquidation and settlement and a replay reproduces them without running this
 * code.
 *
 * One pass at a time, each command submitted after the previous one completed:
 *   0. MMP, when a freeze was triggered since the last look (the gateway's observers look after every command):
 *      every open MMP order of a frozen (user, underlying) is cancelled (CancelOrder, finish_as mmp_cancelled);
 *   1. index, every `indexIntervalMs` of the engine clock (or on demand): per underlying, an override (control
 *      plane), else the last trade of its `index_source` spot market in option ticks (half up); an
 *      OptionsSetIndex when it differs from the state, and at every step while one of the underlying's expirations
 *      is in its settlement window (each step is then a sample of the settlement price's mean);
 *   2. marks, in the same step: per unsettled contract of an underlying with an index, the option model's value
 *      at the engine time (core/options/option-model.ts) on the tick grid; an OptionsSetMark when it differs;
 *   3. liquidation, after each index step (or on demand, or at once when the previous pass ran out of budget):
 *      options-liquidator.ts;
 *   4. expiry, for each (underlying, expiration) the engine clock reached and not yet settled: every open order of
 *      its contracts is cancelled (CancelOrder, FinishAs cancelled), then an OptionsSettle, which settles at the
 *      mean index of the expiration's window (the index now is only its last fallback; core/options).
 *      An underlying without any index yet is settled at its next pass that has one.
 * POST /sim/clock waits on `ready()`, so moving the simulated clock across an expiry settles it before it answers.
 * Costs per pass: one incremental pass over new trades (LastPrices); per index step the option model of every
 * unsettled contract and a liquidation scan of every options position row; O(open orders) of expiring contracts;
 * an MMP freeze scans the users with MMP settings and their open orders.
 */
import type { Clock } from '../../core/clock.js';
import { Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { inSettleWindow } from '../../core/futures/settle-window.js';
import { orderFlagsOf } from '../../core/exchange/order-store.js';
import { FinishAs } from '../../core/matching/order-types.js';
import { contractModel } from '../../core/options/option-model.js';
import { mmpFrozen } from '../../core/options/options-mmp.js';
import { OptionsFlag } from '../../core/options/options-orders.js';
import { ResultCode } from '../../core/result-code.js';
import { ServicePasses } from '../service-passes.js';
import { emptyLiquidatorStats, type LiquidatorStats, type PassResult } from '../futures/futures-liquidator.js';
import { BookProbe, type DepthReader, LastPrices, rescaleTicks } from '../futures/futures-prices.js';
import { optionsLiquidationPass } from './options-liquidator.js';

export interface OptionsHost {
  readonly exchange: Exchange;
  readonly clock: Clock;
  submit(cmd: Command, done: (code: ResultCode) => void): void;
  depth: DepthReader;
  /** Called after every command (a gateway's observers): MMP freezes are acted on right after the fill. */
  observe?(listener: () => void): void;
}

export interface OptionsServiceOptions {
  /** Engine-clock ms between index (and mark) steps; each is followed by a liquidation scan. Default 1000. */
  readonly indexIntervalMs?: number | undefined;
  /** Liquidations per pass at most. Default 1000. */
  readonly liquidationsPerPass?: number | undefined;
  /** Wall-clock ms between due checks; 0: no timer (the caller drives poll/ready). Default 100. */
  readonly checkMs?: number | undefined;
}

const registry = new WeakMap<Exchange, OptionsServices>();
const READY_PASSES = 1000;

/** The services running on `ex`, if any. */
export const optionsServicesOf = (ex: Exchange): OptionsServices | undefined => registry.get(ex);

export class OptionsServices {
  readonly #host: OptionsHost;
  readonly #ex: Exchange;
  readonly #intervalUs: number;
  readonly #last: LastPrices;
  readonly #override: (number | undefined)[];
  readonly #cmd = new Command();
  readonly #probe: BookProbe;
  readonly #budget: number;
  readonly #pass: PassResult = { more: false };
  readonly stats: LiquidatorStats & { indexUpdates: number; markUpdates: number; settlements: number; cancels: number; passes: number } = {
    ...emptyLiquidatorStats(), indexUpdates: 0, markUpdates: 0, settlements: 0, cancels: 0, passes: 0,
  };
  #lastIndexUs = Number.NEGATIVE_INFINITY;
  #force = false;
  #forceScan = false;
  /** MMP freezes acted on (OptionsState.mmpTriggers); -1: none yet, so the first pass checks after a restart. */
  #mmpSeen = -1;
  readonly #passes: ServicePasses;

  constructor(host: OptionsHost, options: OptionsServiceOptions = {}) {
    this.#host = host;
    this.#ex = host.exchange;
    this.#intervalUs = (options.indexIntervalMs ?? 1000) * 1000;
    this.#budget = options.liquidationsPerPass ?? 1000;
    this.#probe = new BookProbe((m, side, limit, prices, lots) => host.depth(m, side, limit, prices, lots));
    this.#last = new LastPrices(this.#ex);
    this.#override = new Array<number | undefined>(this.#ex.options.underlyings.length).fill(undefined);
    registry.set(this.#ex, this);
    host.observe?.(() => { if (this.#ex.options.mmpTriggers !== this.#mmpSeen) this.poll(); });
    this.#passes = new ServicePasses(host, {
      active: () => this.#ex.options.contracts.length > 0,
      due: () => this.#due(),
      started: () => { this.stats.passes++; },
      steps: () => this.#steps(),
    }, READY_PASSES, options.checkMs ?? 100);
  }

  /** Overrides underlying `ui`'s index (option ticks; null: back to its source); applied at once. */
  setIndexPrice(ui: number, ticks: number | null): Promise<void> {
    this.#override[ui] = ticks ?? undefined;
    this.#force = true;
    return this.ready();
  }

  /** Runs a pass now with every step (index, marks, a liquidation scan); resolves when its commands completed. */
  runNow(): Promise<void> {
    this.#force = true;
    this.#forceScan = true;
    return this.ready();
  }

  /** Starts what is due, synchronously (a synchronous host runs it to the end). */
  poll(): void {
    this.#passes.poll();
  }

  /** Runs what is due until nothing is (bounded); resolves once every command it issued completed. */
  ready(): Promise<void> {
    return this.#passes.ready();
  }

  close(): void {
    this.#passes.close();
    if (registry.get(this.#ex) === this) registry.delete(this.#ex);
  }

  #due(): boolean {
    const now = this.#host.clock.nowUs();
    return this.#force || this.#forceScan || this.#pass.more || this.#ex.options.mmpTriggers !== this.#mmpSeen
      || now >= this.#lastIndexUs + this.#intervalUs
      || this.#expiryDue(now) !== undefined;
  }

  /** The first (underlying, expiration) the clock reached that is not settled and has an index, or undefined. */
  #expiryDue(now: number): [number, number] | undefined {
    const S = this.#ex.options;
    for (let ci = 0; ci < S.contracts.length; ci++) {
      const k = S.contracts[ci]!;
      if (S.settled[ci] === 0 && now >= k.expiration * 1e6 && S.index[k.u]! > 0) return [k.u, k.expiration];
    }
    return undefined;
  }

  *#steps(): Generator<Command, void, ResultCode> {
    const now = this.#host.clock.nowUs();
    if (this.#ex.options.mmpTriggers !== this.#mmpSeen) {
      this.#mmpSeen = this.#ex.options.mmpTriggers;
      yield* this.#mmpStep(now);
    }
    let scan = this.#forceScan || this.#pass.more;
    if (this.#force || now >= this.#lastIndexUs + this.#intervalUs) {
      this.#force = false;
      this.#lastIndexUs = now;
      yield* this.#indexStep();
      yield* this.#markStep(now);
      scan = true;
    }
    if (scan) {
      this.#forceScan = false;
      yield* optionsLiquidationPass(this.#ex, this.#probe, now, this.#budget, this.stats, this.#pass);
    }
    const tried = new Set<string>();
    for (let due = this.#expiryDue(now); due !== undefined; due = this.#expiryDue(now)) {
      const key = `${due[0]}/${due[1]}`;
      if (tried.has(key)) return; // refused once this pass (e.g. the gateway stopped): next pass
      tried.add(key);
      yield* this.#settleStep(due[0], due[1]);
    }
  }

  *#indexStep(): Generator<Command, void, ResultCode> {
    const ex = this.#ex;
    const S = ex.options;
    this.#last.refresh();
    const t = this.#host.clock.nowUs() / 1e6;
    for (let ui = 0; ui < S.underlyings.length; ui++) {
      const index = this.#indexOf(ui);
      // Within an expiration's settlement window every step is a sample, changed or not.
      const sampling = S.expiries.some((x) => x.u === ui && inSettleWindow(t, x.expiration, S.underlyings[ui]!.settleDuration));
      if (index === undefined || index <= 0 || (index === S.index[ui] && !sampling)) continue;
      const c = this.#cmd.clear();
      c.type = CommandType.OptionsSetIndex; c.sub = ui; c.price = index;
      if ((yield c) === ResultCode.Ok) this.stats.indexUpdates++;
    }
  }

  /** Step 0: every open MMP order of a frozen (user, underlying) is cancelled (finish_as mmp_cancelled). */
  *#mmpStep(now: number): Generator<Command, void, ResultCode> {
    const S = this.#ex.options;
    const O = this.#ex.orders;
    const open: [number, number, number][] = [];
    for (const [key] of S.mmpEntries()) {
      const [uid, ui] = S.mmpKey(key);
      if (!mmpFrozen(S, uid, ui, now)) continue;
      for (const r of O.openOf(uid)) {
        const ci = S.contractOf(O.market[r]!);
        if (ci >= 0 && S.contracts[ci]!.u === ui && (orderFlagsOf(O.account[r]!) & OptionsFlag.Mmp) !== 0) open.push([uid, O.market[r]!, O.id[r]!]);
      }
    }
    for (const [uid, m, id] of open) {
      const c = this.#cmd.clear();
      c.type = CommandType.CancelOrder; c.uid = uid; c.market = m; c.orderId = id; c.tif = FinishAs.MmpCancelled;
      if ((yield c) === ResultCode.Ok) this.stats.cancels++;
    }
  }

  /** Step 2: each unsettled contract's model mark at `now`, where its underlying has an index. */
  *#markStep(now: number): Generator<Command, void, ResultCode> {
    const S = this.#ex.options;
    for (let ci = 0; ci < S.contracts.length; ci++) {
      const k = S.contracts[ci]!;
      const index = S.index[k.u]!;
      if (S.settled[ci] !== 0 || index <= 0) continue;
      const m = contractModel(S.underlyings[k.u]!, k, index, now);
      const delta = Math.round(m.delta * 10_000);
      if (m.markTicks === S.mark[ci] && delta === S.delta[ci]) continue;
      const c = this.#cmd.clear();
      c.type = CommandType.OptionsSetMark; c.market = S.marketOf[ci]!; c.price = m.markTicks; c.amount = delta;
      if ((yield c) === ResultCode.Ok) this.stats.markUpdates++;
    }
  }

  *#settleStep(ui: number, expiration: number): Generator<Command, void, ResultCode> {
    const ex = this.#ex;
    const S = ex.options;
    const O = ex.orders;
    const open: [number, number, number][] = [];
    // Open orders are counted on their position rows (pending), so only those users' books are read.
    for (const p of S.rows) {
      const k = S.contracts[p.ci]!;
      if (p.pending === 0 || k.u !== ui || k.expiration !== expiration) continue;
      const m = S.marketOf[p.ci]!;
      for (const r of O.openOf(p.uid, m)) open.push([p.uid, m, O.id[r]!]);
    }
    for (const [uid, m, id] of open) {
      const c = this.#cmd.clear();
      c.type = CommandType.CancelOrder; c.uid = uid; c.market = m; c.orderId = id;
      if ((yield c) === ResultCode.Ok) this.stats.cancels++;
    }
    const c = this.#cmd.clear();
    c.type = CommandType.OptionsSettle; c.sub = ui; c.amount = expiration; c.price = S.index[ui]!;
    if ((yield c) === ResultCode.Ok) this.stats.settlements++;
  }

  /** Underlying `ui`'s index in option ticks: the override, else its spot source's last trade; undefined: none. */
  #indexOf(ui: number): number | undefined {
    const forced = this.#override[ui];
    if (forced !== undefined) return forced;
    const ex = this.#ex;
    const u = ex.options.underlyings[ui]!;
    const spot = ex.marketIndex(u.indexSource);
    if (spot < 0) return undefined;
    const p = this.#last.of(spot);
    return Number.isNaN(p) ? undefined : rescaleTicks(p, ex.markets[spot]!.priceScale, u.priceScale);
  }
}
