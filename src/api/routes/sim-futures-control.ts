/**
 * What the /sim/futures control plane asks of the futures edge (the price clock, funding and the liquidator),
 * as one small interface, and a direct implementation that issues the core commands through the gateway.
 * The futures-edge services implement FuturesControl themselves; wiring them in is one change: pass theirs to
 * registerSimFuturesRoutes (server.ts) instead of `directFuturesControl(gateway)`.
 *
 * Every change is a journaled command (FuturesSetPrices, FuturesFunding, CancelAll, FuturesLiquidate, the
 * liquidator's PlaceOrder, FuturesDeleverage), so a replay reproduces it. The funding-rate override lives in
 * this object (not journaled, like the price clock's own smoothing state): a restart forgets it.
 *
 * Contracts are named by index into exchange.futures.contracts; prices are ticks of 10^-priceScale; rates 10^-8.
 */
import { Command, CommandType } from '../../core/command.js';
import { FuturesFlag } from '../../core/futures/futures-orders.js';
import { isLiquidatable } from '../../core/futures/futures-commands.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { INSURANCE_UID } from '../../core/ledger/futures-funds.js';
import { OrderType, Side, TimeInForce } from '../../core/matching/order-types.js';
import { ResultCode } from '../../core/result-code.js';
import type { ExchangeGateway } from '../../engine/gateway.js';

/** What one liquidator pass did. */
export interface LiquidationPass {
  /** Positions taken over by the liquidator: uid, contract name, slot, size at takeover. */
  readonly liquidated: readonly { readonly uid: number; readonly contract: string; readonly slot: number; readonly size: number }[];
  /** Contracts where a remainder the insurance fund could not carry was auto-deleveraged. */
  readonly deleveraged: readonly string[];
}

export interface FuturesControl {
  /** Sets contract `ci`'s mark and/or index price (ticks; 0 leaves it); the indicative funding rate is kept. */
  setPrices(ci: number, markTicks: number, indexTicks: number): Promise<ResultCode>;
  /** The funding-rate override of `ci` (10^-8), or undefined when the computed rate applies. */
  fundingOverride(ci: number): bigint | undefined;
  /** Sets (a rate, 10^-8) or clears (undefined) the override of `ci`. */
  setFundingOverride(ci: number, rate: bigint | undefined): void;
  /**
   * Applies funding of `ci` at the override or else the indicative rate: the FuturesFunding command's code
   * (NothingDue before the contract's funding time or without a mark) and the rate used.
   */
  applyFunding(ci: number): Promise<{ code: ResultCode; rate: bigint }>;
  /** One liquidator pass over contract `ci` (-1: every contract): every liquidatable position, in row order. */
  liquidate(ci: number): Promise<LiquidationPass>;
}

/** The FuturesControl that submits the core commands itself (until the futures-edge services take over). */
export function directFuturesControl(gateway: ExchangeGateway): FuturesControl {
  const overrides = new Map<number, bigint>();
  const ex = () => gateway.exchange;
  const cmd = (type: number, market: number): Command => {
    const c = new Command();
    c.type = type;
    c.market = market;
    return c;
  };
  /** Submits `c` and resolves with its code. */
  const run = (c: Command): Promise<ResultCode> => new Promise((resolve) => gateway.submit(c, (code) => resolve(code)));

  /** Liquidates one position: its orders cancelled, the takeover, the liquidator's close, ADL for what is left. */
  const liquidateRow = async (ci: number, row: number): Promise<{ code: ResultCode; deleveraged: boolean }> => {
    const S = ex().futures;
    const P = S.positions;
    const uid = P.uid[row]!;
    const market = S.marketOf[ci]!;
    const cross = P.leverage[row] === 0;
    // An isolated position's orders in its contract; a cross account's in every contract of the settle currency.
    const markets = cross ? S.marketOf.filter((_, i) => S.settleCur[i] === S.settleCur[ci]) : [market];
    for (const m of markets) {
      const c = cmd(CommandType.CancelAll, m);
      c.uid = uid;
      await run(c);
    }
    const take = cmd(CommandType.FuturesLiquidate, market);
    take.uid = uid;
    take.sub = P.slot[row]!;
    const code = await run(take);
    if (code !== ResultCode.Ok) return { code, deleveraged: false };
    const close = cmd(CommandType.PlaceOrder, market);
    close.uid = INSURANCE_UID; close.kind = AccountKind.Futures; close.sub = S.settleCur[ci]!;
    close.side = Side.Sell; close.orderType = OrderType.Market; close.tif = TimeInForce.Ioc; close.toKind = FuturesFlag.Liquidation;
    await run(close); // the engine sets side and size from the liquidator's position; refused when nothing is left
    const adl = await run(cmd(CommandType.FuturesDeleverage, market));
    return { code: ResultCode.Ok, deleveraged: adl === ResultCode.Ok };
  };

  return {
    setPrices(ci, markTicks, indexTicks) {
      const c = cmd(CommandType.FuturesSetPrices, ex().futures.marketOf[ci]!);
      c.price = markTicks;
      c.amount = indexTicks;
      c.iceberg = Number(ex().futures.indicativeRate[ci]!);
      return run(c);
    },
    fundingOverride: (ci) => overrides.get(ci),
    setFundingOverride(ci, rate) {
      if (rate === undefined) overrides.delete(ci);
      else overrides.set(ci, rate);
    },
    async applyFunding(ci) {
      const rate = overrides.get(ci) ?? ex().futures.indicativeRate[ci]!;
      const c = cmd(CommandType.FuturesFunding, ex().futures.marketOf[ci]!);
      c.iceberg = Number(rate);
      return { code: await run(c), rate };
    },
    async liquidate(ci) {
      const S = ex().futures;
      const contracts = ci < 0 ? S.contracts.map((_, i) => i) : [ci];
      const liquidated: { uid: number; contract: string; slot: number; size: number }[] = [];
      const deleveraged: string[] = [];
      for (const i of contracts) {
        const name = S.contracts[i]!.name;
        // Decided on the state now; each command re-checks (a position safe again is NotLiquidatable).
        const rows = S.positions.openRows(S.marketOf[i]).filter((r) => isLiquidatable(ex(), i, r));
        for (const r of rows) {
          const size = S.positions.size[r]!;
          const out = await liquidateRow(i, r);
          if (out.code === ResultCode.Ok) liquidated.push({ uid: S.positions.uid[r]!, contract: name, slot: S.positions.slot[r]!, size });
          if (out.deleveraged && !deleveraged.includes(name)) deleveraged.push(name);
        }
      }
      return { liquidated, deleveraged };
    },
  };
}
