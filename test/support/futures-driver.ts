// A small driver for futures tests: a definition with linear and inverse contracts, funded futures accounts, and
// one-line helpers that submit commands to an InlineEngine (or anything with the same `submit`).
import { Command, CommandType } from '../../src/core/command.js';
import type { ExchangeDefinition } from '../../src/core/exchange/exchange-definition.js';
import type { ContractConfig } from '../../src/core/futures/contract.js';
import { FuturesFlag } from '../../src/core/futures/futures-orders.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { DELIVERY_ACCT, INSURANCE_UID, kindOfAcct } from '../../src/core/ledger/futures-funds.js';
import { OrderType, Side, TimeInForce } from '../../src/core/matching/order-types.js';
import type { ResultCode } from '../../src/core/result-code.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { type Clock, SimClock } from '../../src/core/clock.js';
import type { JournalWriter } from '../../src/engine/journal/writer.js';

export const LINEAR: ContractConfig = {
  name: 'BTC_USDT', settle: 'usdt', quanto_multiplier: '0.0001', order_price_round: '0.1', mark_price_round: '0.01',
  leverage_min: '1', leverage_max: '100', maintenance_rate: '0.005', maker_fee_rate: '-0.0001', taker_fee_rate: '0.00075',
  risk_limit_base: '1000000', risk_limit_step: '1000000', risk_limit_max: '8000000', order_size_min: 1, order_size_max: 1_000_000,
};
export const INVERSE: ContractConfig = {
  name: 'BTC_USD', settle: 'btc', order_price_round: '0.5', mark_price_round: '0.01', leverage_min: '1', leverage_max: '100',
  maintenance_rate: '0.005', maker_fee_rate: '-0.00025', taker_fee_rate: '0.00075', risk_limit_base: '100', risk_limit_step: '50',
  risk_limit_max: '1000', order_size_min: 1, order_size_max: 1_000_000,
};

/** A definition with BTC_USDT spot, the two contracts and users 1..users; `wide` makes USDT a BigInt currency. */
export function futuresDefinition(users = 6, wide = false): ExchangeDefinition {
  return {
    currencies: [
      { code: 'BTC', scale: 8, maxSupply: '21000000' },
      { code: 'USDT', scale: 8, maxSupply: wide ? '100000000000000' : '50000000' },
    ],
    markets: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 4 }],
    users: Array.from({ length: users }, (_, i) => ({ uid: i + 1 })),
    futures: { contracts: [LINEAR, INVERSE] },
  };
}

export const MS = 1000;
export const T0 = Date.UTC(2026, 0, 1) * 1000;

/** Options of a driver: another clock (default a SimClock at T0), a journal, and whether to keep every command. */
export interface FuturesDriverOptions {
  readonly clock?: Clock | undefined;
  readonly journal?: JournalWriter | undefined;
  /** Keep a copy of every submitted command in `sent` (to replay the same stream on another runner). */
  readonly record?: boolean | undefined;
}

/** Command builder and submitter over an InlineEngine with a manual clock. */
export class FuturesDriver {
  readonly engine: InlineEngine;
  readonly clock: Clock;
  readonly cmd = new Command();
  /** Copies of the commands submitted, as sent (before the engine stamps them), when `record` was asked. */
  readonly sent: Command[] = [];
  readonly #record: boolean;
  /** Market index of each contract name, and its settle currency index. */
  readonly market: Record<string, number> = {};
  readonly settle: Record<string, number> = {};

  constructor(def: ExchangeDefinition = futuresDefinition(), options: FuturesDriverOptions = {}) {
    this.clock = options.clock ?? new SimClock(T0);
    this.#record = options.record === true;
    this.engine = new InlineEngine(def, { clock: this.clock, journal: options.journal });
    const ex = this.engine.exchange;
    ex.futures.contracts.forEach((c, i) => {
      this.market[c.name] = ex.futures.marketOf[i]!;
      this.settle[c.name] = ex.futures.settleCur[i]!;
    });
  }

  get ex() {
    return this.engine.exchange;
  }

  #c(type: number): Command {
    return this.cmd.clear().type = type, this.cmd;
  }

  submit(c: Command): ResultCode {
    if (this.#record) this.sent.push(new Command().copyFrom(c));
    return this.engine.submit(c);
  }

  /** The manual clock (throws when the driver runs on another clock). */
  get sim(): SimClock {
    if (!(this.clock instanceof SimClock)) throw new Error('this driver does not run on a SimClock');
    return this.clock;
  }

  /** Credits `units` (decimal string) of `code` to uid's futures (or `kind`: delivery) account (created on first credit). */
  fund(uid: number, code: string, amount: string, kind: number = AccountKind.Futures): ResultCode {
    const cur = this.ex.currencyIndex(code);
    const units = this.ex.ledger.parse(code, amount);
    const c = this.#c(CommandType.Credit);
    c.uid = uid; c.kind = kind; c.sub = cur; c.currency = cur;
    if (typeof units === 'bigint') c.text = units.toString();
    else c.amount = units;
    return this.submit(c);
  }

  /** Places a futures order: size signed (0 with close/auto_size), price ticks (0: market IOC). */
  order(uid: number, contract: string, size: number, price: number, opts: { tif?: number; flags?: number; iceberg?: number; side?: number } = {}): ResultCode {
    const c = this.#c(CommandType.PlaceOrder);
    c.uid = uid; c.market = this.market[contract]!; c.sub = this.settle[contract]!;
    c.kind = kindOfAcct(this.ex.futures.acct[this.ex.futures.contractOf(c.market)]!);
    c.side = opts.side ?? (size >= 0 ? Side.Buy : Side.Sell);
    c.amount = Math.abs(size);
    c.price = price;
    c.orderType = price === 0 ? OrderType.Market : OrderType.Limit;
    c.tif = opts.tif ?? (price === 0 ? TimeInForce.Ioc : TimeInForce.Gtc);
    c.toKind = opts.flags ?? 0;
    c.iceberg = opts.iceberg ?? 0;
    return this.submit(c);
  }

  /** The id the last accepted PlaceOrder got. */
  get lastOrderId(): number {
    return this.ex.lastOrderId;
  }

  cancel(uid: number, contract: string, orderId: number, reason = 0): ResultCode {
    const c = this.#c(CommandType.CancelOrder);
    c.uid = uid; c.market = this.market[contract]!; c.orderId = orderId; c.tif = reason;
    return this.submit(c);
  }

  cancelAll(uid: number, contract: string): ResultCode {
    const c = this.#c(CommandType.CancelAll);
    c.uid = uid; c.market = this.market[contract]!;
    return this.submit(c);
  }

  amend(uid: number, contract: string, orderId: number, size: number, price: number): ResultCode {
    const c = this.#c(CommandType.AmendOrder);
    c.uid = uid; c.market = this.market[contract]!; c.orderId = orderId; c.amount = size; c.price = price;
    return this.submit(c);
  }

  leverage(uid: number, contract: string, leverage: number, crossLimit = 0): ResultCode {
    const c = this.#c(CommandType.FuturesSetLeverage);
    c.uid = uid; c.market = this.market[contract]!; c.price = leverage; c.amount = crossLimit;
    return this.submit(c);
  }

  margin(uid: number, contract: string, units: bigint, slot = 0): ResultCode {
    const c = this.#c(CommandType.FuturesUpdateMargin);
    c.uid = uid; c.market = this.market[contract]!; c.sub = slot; c.side = units >= 0n ? 1 : 2;
    c.text = (units < 0n ? -units : units).toString();
    return this.submit(c);
  }

  riskLimit(uid: number, contract: string, units: bigint): ResultCode {
    const c = this.#c(CommandType.FuturesSetRiskLimit);
    c.uid = uid; c.market = this.market[contract]!; c.text = units.toString();
    return this.submit(c);
  }

  dualMode(uid: number, code: string, on: boolean): ResultCode {
    const c = this.#c(CommandType.FuturesSetDualMode);
    c.uid = uid; c.currency = this.ex.currencyIndex(code); c.side = on ? 1 : 0;
    return this.submit(c);
  }

  /** Sets mark (and index) in ticks and the indicative funding rate (10^-8). */
  prices(contract: string, mark: number, index = mark, rate = 0): ResultCode {
    const c = this.#c(CommandType.FuturesSetPrices);
    c.market = this.market[contract]!; c.price = mark; c.amount = index; c.iceberg = rate;
    return this.submit(c);
  }

  funding(contract: string, rate: number): ResultCode {
    const c = this.#c(CommandType.FuturesFunding);
    c.market = this.market[contract]!; c.iceberg = rate;
    return this.submit(c);
  }

  liquidate(uid: number, contract: string, slot = 0): ResultCode {
    const c = this.#c(CommandType.FuturesLiquidate);
    c.uid = uid; c.market = this.market[contract]!; c.sub = slot;
    return this.submit(c);
  }

  /** The liquidator's closing order (market IOC, Liquidation flag). */
  liquidatorOrder(contract: string): ResultCode {
    const c = this.#c(CommandType.PlaceOrder);
    c.uid = INSURANCE_UID; c.market = this.market[contract]!; c.sub = this.settle[contract]!;
    c.kind = kindOfAcct(this.ex.futures.acct[this.ex.futures.contractOf(c.market)]!);
    c.side = Side.Sell; c.orderType = OrderType.Market; c.tif = TimeInForce.Ioc; c.toKind = FuturesFlag.Liquidation;
    return this.submit(c);
  }

  deleverage(contract: string): ResultCode {
    const c = this.#c(CommandType.FuturesDeleverage);
    c.market = this.market[contract]!;
    return this.submit(c);
  }

  /** Position row of (uid, contract, slot), or -1. */
  row(uid: number, contract: string, slot = 0): number {
    return this.ex.futures.positions.find(uid, this.market[contract]!, slot);
  }

  size(uid: number, contract: string, slot = 0): number {
    const r = this.row(uid, contract, slot);
    return r < 0 ? 0 : this.ex.futures.positions.size[r]!;
  }

  /** Total (available + locked) of a futures account (`delivery`: the delivery account), BigInt units. */
  total(uid: number, code: string, delivery = false): bigint {
    return this.ex.ledger.futures.total(uid, this.ex.currencyIndex(code) + (delivery ? DELIVERY_ACCT : 0));
  }

  available(uid: number, code: string, delivery = false): bigint {
    return this.ex.ledger.futures.available(uid, this.ex.currencyIndex(code) + (delivery ? DELIVERY_ACCT : 0));
  }

  /** Settles delivery contract `contract` (DeliverySettle). */
  deliver(contract: string): ResultCode {
    const c = this.#c(CommandType.DeliverySettle);
    c.market = this.market[contract]!;
    return this.submit(c);
  }
}
