/**
 * What the /sim/futures control plane asks of the futures edge, as one small interface, and its one
 * implementation over the gateway and, when they run, the futures services (src/engine/futures: the price
 * clock, funding and the liquidator).
 *
 * - Prices: with the services running, a price set here is an override of the price clock (it holds until
 *   cleared with null, and the clock's next steps keep it); without them, one FuturesSetPrices.
 * - The funding-rate override: the services' (it also becomes the indicative rate), else held here.
 * - Liquidation: the liquidator's own pass (futures-liquidator.ts), run now, every command submitted after the
 *   previous one completed.
 * Every change is a journaled command (FuturesSetPrices, FuturesFunding, CancelAll, FuturesLiquidate, the
 * liquidator's PlaceOrder, FuturesDeleverage), so a replay reproduces it; overrides live in memory (not
 * journaled, like the price clock's smoothing state): a restart forgets them.
 *
 * Contracts are named by index into exchange.futures.contracts; prices are ticks of 10^-priceScale; rates 10^-8.
 */
import { Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { ResultCode } from '../../core/result-code.js';
import { emptyLiquidatorStats, liquidationPass } from '../../engine/futures/futures-liquidator.js';
import type { FuturesServices } from '../../engine/futures/futures-services.js';
import type { ExchangeGateway } from '../../engine/gateway.js';

/** What one liquidator pass did. */
export interface LiquidationPass {
  /** Positions taken over by the liquidator: uid, contract name, slot, size at takeover. */
  readonly liquidated: readonly { readonly uid: number; readonly contract: string; readonly slot: number; readonly size: number }[];
  /** Contracts where a remainder the insurance fund could not carry was auto-deleveraged. */
  readonly deleveraged: readonly string[];
}

export interface FuturesControl {
  /**
   * Sets contract `ci`'s mark and/or index price (ticks); undefined leaves one as it is, null clears its override
   * (the price clock computes it again). The indicative funding rate is kept.
   */
  setPrices(ci: number, markTicks: number | null | undefined, indexTicks: number | null | undefined): Promise<ResultCode>;
  /** The funding-rate override of `ci` (10^-8), or undefined when the computed rate applies. */
  fundingOverride(ci: number): bigint | undefined;
  /** Sets (a rate, 10^-8) or clears (undefined) the override of `ci`; resolves once prices reflect it. */
  setFundingOverride(ci: number, rate: bigint | undefined): Promise<void>;
  /**
   * Applies funding of `ci` at the override or else the indicative rate: the FuturesFunding command's code
   * (NothingDue before the contract's funding time or without a mark) and the rate used.
   */
  applyFunding(ci: number): Promise<{ code: ResultCode; rate: bigint }>;
  /** One liquidator pass over contract `ci` (-1: every contract): every liquidatable position, in row order. */
  liquidate(ci: number): Promise<LiquidationPass>;
}

/** The FuturesControl over `gateway`, through `services` when the price clock runs (see the module header). */
export function futuresControl(gateway: ExchangeGateway, services: () => FuturesServices | undefined): FuturesControl {
  const overrides = new Map<number, bigint>();
  const ex = (): Exchange => gateway.exchange;
  /** Submits `c` and resolves with its code. */
  const run = (c: Command): Promise<ResultCode> => new Promise((resolve) => gateway.submit(c, (code) => resolve(code)));

  return {
    async setPrices(ci, markTicks, indexTicks) {
      const sv = services();
      if (sv !== undefined) {
        if (markTicks !== undefined) await sv.setMarkPrice(ci, markTicks);
        if (indexTicks !== undefined) await sv.setIndexPrice(ci, indexTicks);
        return ResultCode.Ok;
      }
      const c = new Command();
      c.type = CommandType.FuturesSetPrices;
      c.market = ex().futures.marketOf[ci]!;
      c.price = markTicks ?? 0;
      c.amount = indexTicks ?? 0;
      c.iceberg = Number(ex().futures.indicativeRate[ci]!);
      return run(c);
    },
    fundingOverride: (ci) => {
      const sv = services();
      return sv !== undefined ? sv.overrides(ci).rate : overrides.get(ci);
    },
    async setFundingOverride(ci, rate) {
      const sv = services();
      if (sv !== undefined) return sv.setFundingRate(ci, rate ?? null);
      if (rate === undefined) overrides.delete(ci);
      else overrides.set(ci, rate);
    },
    async applyFunding(ci) {
      const rate = this.fundingOverride(ci) ?? ex().futures.indicativeRate[ci]!;
      const c = new Command();
      c.type = CommandType.FuturesFunding;
      c.market = ex().futures.marketOf[ci]!;
      c.iceberg = Number(rate);
      return { code: await run(c), rate };
    },
    async liquidate(ci) {
      const S = ex().futures;
      const P = S.positions;
      const liquidated: { uid: number; contract: string; slot: number; size: number }[] = [];
      const deleveraged: string[] = [];
      const pass = liquidationPass(ex(), Number.MAX_SAFE_INTEGER, emptyLiquidatorStats(), { more: false }, ci);
      for (let step = pass.next(); step.done !== true;) {
        const c = step.value;
        const k = c.market >= 0 && c.market < ex().markets.length ? S.contractOf(c.market) : -1;
        const name = k >= 0 ? S.contracts[k]!.name : '';
        const row = c.type === CommandType.FuturesLiquidate ? P.find(c.uid, c.market, c.sub) : -1;
        const taken = { uid: c.uid, contract: name, slot: c.sub, size: row >= 0 ? P.size[row]! : 0 };
        const type = c.type;
        const code: ResultCode = await run(c);
        if (code === ResultCode.Ok && type === CommandType.FuturesLiquidate) liquidated.push(taken);
        if (code === ResultCode.Ok && type === CommandType.FuturesDeleverage && !deleveraged.includes(name)) deleveraged.push(name);
        step = pass.next(code);
      }
      return { liquidated, deleveraged };
    },
  };
}
