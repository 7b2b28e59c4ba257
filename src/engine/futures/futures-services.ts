/**
 * The futures services of the engine clock: the price clock (index and mark, FuturesSetPrices), funding
 * (FuturesFunding at each contract's `funding_next_apply`) and the liquidator (futures-liquidator.ts). They live
 * at the edge: they read the exchange, decide, and submit ordinary commands through the host (a gateway, either
 * runner), so the journal holds every price, funding and liquidation and a replay reproduces the state without
 * running them. Their own memory (basis EMA, premium samples, a delivery contract's basis rate, overrides) is not
 * journaled: after a restart the EMA and the premium average start again from the next sample, a delivery contract's
 * basis rate is the one its journaled mark and index imply, and overrides are gone.
 *
 * One pass at a time, each of its steps submitted after the previous one completed (the state each decision
 * reads is current), in this order:
 *   1. prices, when `priceIntervalMs` of the engine clock passed since the last price step (or on demand):
 *      per contract a new index, mark and indicative rate (futures-prices.ts; a delivery contract's mark is its
 *      index plus Gate's reasonable basis, the rate computed again every `basisIntervalMs`); a FuturesSetPrices
 *      only when one of them differs from the state;
 *   2. funding, for each contract whose next funding time the engine clock reached: a FuturesFunding at the
 *      rate of now (the mean premium since the last funding, or the override); the premium samples restart;
 *   3. expiry, for each delivery contract whose expire time the engine clock reached: its owners' orders
 *      cancelled, then DeliverySettle (delivery-expiry.ts); an expired contract's prices are no longer updated;
 *   4. liquidation, when the prices step changed a mark, or `liquidationIntervalMs` passed since the last scan
 *      (funding, fills and margin changes move accounts too), or the previous scan ran out of budget.
 * A wall-clock timer (`checkMs`) gives the due checks a chance to run; under a simulated clock nothing is due
 * until the clock moves, and `ready()` (POST /sim/clock waits on it) runs what the move made due.
 *
 * API for the control plane (/sim/futures, sim-futures-control.ts): setIndexPrice / setMarkPrice / setFundingRate overrides (ticks or
 * 10^-8; null clears), runNow(), ready(), stats; `futuresServicesOf(exchange)` finds the running services.
 */
import { type Clock } from '../../core/clock.js';
import { Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { ResultCode } from '../../core/result-code.js';
import { ServicePasses } from '../service-passes.js';
import { expiryDue, expiryStep, isExpired } from './delivery-expiry.js';
import { emptyLiquidatorStats, type LiquidatorStats, liquidationPass, type PassResult } from './futures-liquidator.js';
import { isDelivery } from '../../core/futures/contract.js';
import {
  type BasisMemory, basisSample, BookProbe, deliveryMark, type DepthReader, freshBasis, freshMemory, fundingRateOf, impliedBasisRate,
  indexMarketOf, LastPrices, premiumOf, type PriceMemory, reasonableBasisRate, rescaleTicks, roundToStep, smoothBasis,
} from './futures-prices.js';

/** What the services run on: an ExchangeGateway (either runner) has it. */
export interface FuturesHost {
  readonly exchange: Exchange;
  readonly clock: Clock;
  submit(cmd: Command, done: (code: ResultCode) => void): void;
  depth: DepthReader;
}

export interface FuturesServiceOptions {
  /** Engine-clock ms between price steps. Default 1000. */
  readonly priceIntervalMs?: number | undefined;
  /** Samples the basis EMA spans (α = 2 / (n + 1)). Default 30. */
  readonly markEmaSamples?: number | undefined;
  /** Largest |basis| / index, 10^-8. Default 500_000 (0.5 %). */
  readonly markBasisCap?: bigint | undefined;
  /** Engine-clock ms between computations of a delivery contract's reasonable basis rate. Default 60 000 (Gate: about a minute). */
  readonly basisIntervalMs?: number | undefined;
  /** Engine-clock ms between periodic liquidation scans. Default 1000. */
  readonly liquidationIntervalMs?: number | undefined;
  /** Liquidations per pass at most. Default 1000. */
  readonly liquidationsPerPass?: number | undefined;
  /** Wall-clock ms between due checks; 0: no timer (the caller drives runNow/ready). Default 100. */
  readonly checkMs?: number | undefined;
  /**
   * False: the services never issue FuturesFunding themselves; the caller submits it (a market-data replay pays
   * funding at the recorded times and rates). Default true.
   */
  readonly scheduledFunding?: boolean | undefined;
}

export const FUTURES_SERVICE_DEFAULTS = {
  priceIntervalMs: 1000, markEmaSamples: 30, markBasisCap: 500_000n, basisIntervalMs: 60_000, liquidationIntervalMs: 1000, liquidationsPerPass: 1000,
  checkMs: 100, scheduledFunding: true,
} as const;

/** Counts since start. */
export interface FuturesServiceStats extends LiquidatorStats {
  priceUpdates: number;
  fundings: number;
  /** Delivery contracts settled. */
  settlements: number;
  passes: number;
}

const registry = new WeakMap<Exchange, FuturesServices>();

/** The services running on `ex`, if any (the control plane's handle). */
export function futuresServicesOf(ex: Exchange): FuturesServices | undefined {
  return registry.get(ex);
}

/** Bound on the passes one `ready()` runs (each pass is bounded; this only stops a condition that never clears). */
const READY_PASSES = 10_000;

export class FuturesServices {
  readonly #host: FuturesHost;
  readonly #ex: Exchange;
  readonly #opt: Required<{ [K in keyof FuturesServiceOptions]: NonNullable<FuturesServiceOptions[K]> }>;
  readonly #last: LastPrices;
  readonly #probe: BookProbe;
  readonly #memory: PriceMemory[];
  /** Per contract: a delivery contract's basis rate (unused for perpetuals). */
  readonly #basis: BasisMemory[];
  readonly #indexOverride: (number | undefined)[];
  readonly #markOverride: (number | undefined)[];
  readonly #rateOverride: (bigint | undefined)[];
  /** Per contract: no funding attempt before this engine time (µs) after one the engine refused. */
  readonly #fundingRetryUs: Float64Array;
  readonly #cmd = new Command();
  readonly #pass: PassResult = { more: false };
  readonly stats: FuturesServiceStats = { ...emptyLiquidatorStats(), priceUpdates: 0, fundings: 0, settlements: 0, passes: 0 };
  /** Per contract: no settlement attempt before this engine time (µs) after one the engine refused. */
  readonly #settleRetryUs: Float64Array;
  #lastPriceUs = Number.NEGATIVE_INFINITY;
  #lastScanUs = Number.NEGATIVE_INFINITY;
  #forcePrices = false;
  #forceScan = false;
  readonly #passes: ServicePasses;

  constructor(host: FuturesHost, options: FuturesServiceOptions = {}) {
    this.#host = host;
    this.#ex = host.exchange;
    const o = options;
    const d = FUTURES_SERVICE_DEFAULTS;
    this.#opt = {
      priceIntervalMs: o.priceIntervalMs ?? d.priceIntervalMs, markEmaSamples: o.markEmaSamples ?? d.markEmaSamples,
      markBasisCap: o.markBasisCap ?? d.markBasisCap, basisIntervalMs: o.basisIntervalMs ?? d.basisIntervalMs, liquidationIntervalMs: o.liquidationIntervalMs ?? d.liquidationIntervalMs,
      liquidationsPerPass: o.liquidationsPerPass ?? d.liquidationsPerPass, checkMs: o.checkMs ?? d.checkMs,
      scheduledFunding: o.scheduledFunding ?? d.scheduledFunding,
    };
    const n = this.#ex.futures.contracts.length;
    this.#last = new LastPrices(this.#ex);
    this.#probe = new BookProbe((m, side, limit, prices, lots) => host.depth(m, side, limit, prices, lots));
    this.#memory = Array.from({ length: n }, freshMemory);
    this.#basis = Array.from({ length: n }, freshBasis);
    this.#indexOverride = new Array<number | undefined>(n).fill(undefined);
    this.#markOverride = new Array<number | undefined>(n).fill(undefined);
    this.#rateOverride = new Array<bigint | undefined>(n).fill(undefined);
    this.#fundingRetryUs = new Float64Array(n);
    this.#settleRetryUs = new Float64Array(n);
    registry.set(this.#ex, this);
    this.#passes = new ServicePasses(host, {
      active: () => this.#ex.futures.contracts.length > 0,
      due: () => this.#due(),
      started: () => { this.stats.passes++; },
      steps: () => this.#steps(),
    }, READY_PASSES, this.#opt.checkMs);
  }

  /** The contract index of `settle`/`name`, or -1. */
  contractIndex(settle: string, name: string): number {
    return this.#ex.futures.contractIndex(settle, name);
  }

  /** Overrides contract `ci`'s index (ticks of the contract; null: back to its source); prices follow at once. */
  setIndexPrice(ci: number, ticks: number | null): Promise<void> {
    this.#indexOverride[ci] = ticks ?? undefined;
    return this.#priceNow();
  }

  /** Overrides contract `ci`'s mark (ticks, rounded to mark_price_round; null: computed again); applied at once. */
  setMarkPrice(ci: number, ticks: number | null): Promise<void> {
    this.#markOverride[ci] = ticks ?? undefined;
    return this.#priceNow();
  }

  /** Overrides contract `ci`'s funding rate (10^-8, capped by the contract; null: computed again). */
  setFundingRate(ci: number, rate: bigint | null): Promise<void> {
    this.#rateOverride[ci] = rate ?? undefined;
    return this.#priceNow();
  }

  /**
   * Sets every override of contract `ci` at once (ticks, ticks, 10^-8; undefined leaves one unchanged) and makes a
   * price step due, without waiting: the caller runs it with `poll()` (synchronous on an inline host). A
   * market-data replay drives recorded prices through this, the same path as the control plane's overrides.
   */
  setRecorded(ci: number, index: number | undefined, mark: number | undefined, rate: bigint | undefined): void {
    if (index !== undefined) this.#indexOverride[ci] = index;
    if (mark !== undefined) this.#markOverride[ci] = mark;
    if (rate !== undefined) this.#rateOverride[ci] = rate;
    this.#forcePrices = true;
  }

  /** Current overrides of contract `ci` (undefined: none). */
  overrides(ci: number): { index: number | undefined; mark: number | undefined; rate: bigint | undefined } {
    return { index: this.#indexOverride[ci], mark: this.#markOverride[ci], rate: this.#rateOverride[ci] };
  }

  /** Runs a pass now with every step (prices, funding, a liquidation scan); resolves when its commands completed. */
  runNow(): Promise<void> {
    this.#forcePrices = true;
    this.#forceScan = true;
    return this.ready();
  }

  /**
   * Starts what is due, synchronously: with a synchronous host (the inline gateway) every due pass has run when
   * it returns (bounded); with the threaded one it starts at most one pass.
   */
  poll(): void {
    this.#passes.poll();
  }

  /** Runs what is due until nothing is (bounded); resolves once every command it issued completed. */
  ready(): Promise<void> {
    return this.#passes.ready();
  }

  /** Stops the timer; a pass in flight completes. */
  close(): void {
    this.#passes.close();
    if (registry.get(this.#ex) === this) registry.delete(this.#ex);
  }

  #priceNow(): Promise<void> {
    this.#forcePrices = true;
    return this.ready();
  }

  #due(): boolean {
    const now = this.#host.clock.nowUs();
    return this.#forcePrices || this.#forceScan || this.#pass.more || now >= this.#lastPriceUs + this.#opt.priceIntervalMs * 1000
      || now >= this.#lastScanUs + this.#opt.liquidationIntervalMs * 1000 || this.#fundingDue(now) >= 0 || this.#expiryDue(now) >= 0;
  }

  /** The first delivery contract ≥ `from` to settle now (expired, not settled, not waiting for a retry), or -1. */
  #expiryDue(now: number, from = 0): number {
    for (let ci = expiryDue(this.#ex, now, from); ci >= 0; ci = expiryDue(this.#ex, now, ci + 1)) {
      if (now >= this.#settleRetryUs[ci]!) return ci;
    }
    return -1;
  }

  /** The first contract whose funding the engine clock reached, or -1. */
  #fundingDue(now: number, from = 0): number {
    if (!this.#opt.scheduledFunding) return -1;
    const S = this.#ex.futures;
    for (let ci = from; ci < S.contracts.length; ci++) {
      if (S.nextFunding[ci]! > 0 && S.mark[ci]! > 0 && now >= S.nextFunding[ci]! * 1e6 && now >= this.#fundingRetryUs[ci]!) return ci;
    }
    return -1;
  }

  *#steps(): Generator<Command, void, ResultCode> {
    const now = this.#host.clock.nowUs();
    let moved = false;
    if (this.#forcePrices || now >= this.#lastPriceUs + this.#opt.priceIntervalMs * 1000) {
      this.#forcePrices = false;
      this.#lastPriceUs = now;
      moved = yield* this.#priceStep();
    }
    for (let ci = this.#fundingDue(now); ci >= 0; ci = this.#fundingDue(now, ci + 1)) yield* this.#fundingStep(ci);
    for (let ci = this.#expiryDue(now); ci >= 0; ci = this.#expiryDue(now, ci + 1)) {
      const before = this.stats.settlements;
      yield* expiryStep(this.#ex, ci, this.stats);
      // Refused (no price at all, an order slipped in): tried again a price interval later, not in a loop.
      if (this.stats.settlements === before) this.#settleRetryUs[ci] = now + this.#opt.priceIntervalMs * 1000;
    }
    if (moved || this.#forceScan || this.#pass.more || now >= this.#lastScanUs + this.#opt.liquidationIntervalMs * 1000) {
      this.#forceScan = false;
      this.#lastScanUs = now;
      yield* liquidationPass(this.#ex, this.#opt.liquidationsPerPass, this.stats, this.#pass);
    }
  }

  /** Step 1; true when some mark changed. */
  *#priceStep(): Generator<Command, boolean, ResultCode> {
    const S = this.#ex.futures;
    this.#last.refresh();
    let moved = false;
    const now = this.#host.clock.nowUs();
    for (let ci = 0; ci < S.contracts.length; ci++) {
      const k = S.contracts[ci]!;
      if (isExpired(this.#ex, ci, now)) continue;
      // A mark override on a contract without any index source stands for the index too.
      const index = this.#indexOf(ci) ?? this.#markOverride[ci];
      if (index === undefined || index <= 0) continue;
      const forced = this.#markOverride[ci];
      let fair: number;
      if (isDelivery(k)) {
        fair = this.#deliveryMark(ci, index, now);
      } else {
        const mem = this.#memory[ci]!;
        fair = index + smoothBasis(mem, basisSample(this.#ex, this.#probe, this.#last, ci, index), this.#opt.markEmaSamples,
          this.#opt.markBasisCap, index);
        mem.premiumSum += premiumOf(this.#ex, this.#probe, ci, index);
        mem.premiumCount++;
      }
      const mark = roundToStep(forced ?? fair, k.markTick);
      const rate = this.#rateOf(ci);
      if (mark === S.mark[ci] && index === S.index[ci] && rate === S.indicativeRate[ci] && S.nextFunding[ci] !== 0) continue;
      const c = this.#cmd.clear();
      c.type = CommandType.FuturesSetPrices; c.market = S.marketOf[ci]!; c.price = mark; c.amount = index; c.iceberg = Number(rate);
      const markBefore = S.mark[ci];
      this.stats.commands++;
      if ((yield c) === ResultCode.Ok) {
        this.stats.priceUpdates++;
        if (S.mark[ci] !== markBefore) moved = true;
      }
    }
    return moved;
  }

  /**
   * Delivery contract `ci`'s mark before rounding at `index`: the index plus Gate's reasonable basis, its rate computed
   * again when `basisIntervalMs` passed since the last attempt (kept when the book does not allow it). A services start
   * takes the rate the state's mark and index imply, so a restart does not move the mark.
   */
  #deliveryMark(ci: number, index: number, now: number): number {
    const S = this.#ex.futures;
    const k = S.contracts[ci]!;
    const mem = this.#basis[ci]!;
    if (mem.triedUs === Number.NEGATIVE_INFINITY) mem.rate = impliedBasisRate(k, S.mark[ci]!, S.index[ci]!, now);
    if (now >= mem.triedUs + this.#opt.basisIntervalMs * 1000) {
      mem.triedUs = now;
      const rate = reasonableBasisRate(this.#ex, this.#probe, ci, index, now);
      if (rate !== undefined) mem.rate = rate;
    }
    return deliveryMark(k, index, mem.rate, now);
  }

  /** Step 2 for contract `ci`. */
  *#fundingStep(ci: number): Generator<Command, void, ResultCode> {
    const S = this.#ex.futures;
    const c = this.#cmd.clear();
    c.type = CommandType.FuturesFunding; c.market = S.marketOf[ci]!; c.iceberg = Number(this.#rateOf(ci));
    this.stats.commands++;
    const code = yield c;
    if (code === ResultCode.Ok) {
      this.stats.fundings++;
      const mem = this.#memory[ci]!;
      mem.premiumSum = 0n;
      mem.premiumCount = 0;
    } else {
      // Refused (e.g. the gateway stopped): tried again a price interval later, not in a loop.
      this.#fundingRetryUs[ci] = this.#host.clock.nowUs() + this.#opt.priceIntervalMs * 1000;
    }
  }

  /** The rate of contract `ci` now: the override, else Gate's formula over the premium samples. */
  #rateOf(ci: number): bigint {
    const k = this.#ex.futures.contracts[ci]!;
    const forced = this.#rateOverride[ci];
    if (forced !== undefined) return forced > k.fundingCap ? k.fundingCap : forced < -k.fundingCap ? -k.fundingCap : forced;
    return fundingRateOf(k, this.#memory[ci]!);
  }

  /** Contract `ci`'s index in its ticks: override, spot source, own last trade; undefined when none. */
  #indexOf(ci: number): number | undefined {
    const forced = this.#indexOverride[ci];
    if (forced !== undefined) return forced;
    const ex = this.#ex;
    const k = ex.futures.contracts[ci]!;
    const spot = indexMarketOf(ex, k);
    if (spot >= 0) {
      const p = this.#last.of(spot);
      if (!Number.isNaN(p)) return rescaleTicks(p, ex.markets[spot]!.priceScale, k.priceScale);
    }
    const own = this.#last.of(ex.futures.marketOf[ci]!);
    return Number.isNaN(own) ? undefined : own;
  }
}
