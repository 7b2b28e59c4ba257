// A small driver for options tests: a definition with BTC_USDT spot and BTC_USDT options (two expirations,
// three strikes), funded options accounts, and one-line helpers that submit commands to an InlineEngine.
import { type Clock, SimClock } from '../../../src/core/clock.js';
import { Command, CommandType } from '../../../src/core/command.js';
import type { ExchangeDefinition } from '../../../src/core/exchange/exchange-definition.js';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import { INSURANCE_UID } from '../../../src/core/ledger/futures-funds.js';
import { OrderType, Side, TimeInForce } from '../../../src/core/matching/order-types.js';
import { OptionsFlag } from '../../../src/core/options/options-orders.js';
import type { ResultCode } from '../../../src/core/result-code.js';
import { InlineEngine } from '../../../src/engine/inline-engine.js';

export const T0 = Date.UTC(2026, 0, 1) * 1000;
export const E1 = T0 / 1e6 + 86_400;
export const E2 = T0 / 1e6 + 7 * 86_400;

export function optionsDefinition(users = 4): ExchangeDefinition {
  return {
    currencies: [{ code: 'BTC', scale: 8, maxSupply: '21000000' }, { code: 'USDT', scale: 8, maxSupply: '50000000' }],
    markets: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 4 }],
    users: Array.from({ length: users }, (_, i) => ({ uid: i + 1 })),
    options: { underlyings: [{ name: 'BTC_USDT', multiplier: '0.01', order_price_round: '0.1', expirations: [E1, E2],
      strikes: ['90000', '100000', '110000'], volatility: '0.6' }] },
  };
}

/** `BTC_USDT-yyyymmdd-strike-C|P` of expiration `e`. */
export function optionName(e: number, strike: string, call: boolean): string {
  const d = new Date(e * 1000);
  const ymd = `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
  return `BTC_USDT-${ymd}-${strike}-${call ? 'C' : 'P'}`;
}

export class OptionsDriver {
  readonly engine: InlineEngine;
  readonly cmd = new Command();
  readonly sent: Command[] = [];

  constructor(def: ExchangeDefinition = optionsDefinition(), readonly clock: Clock = new SimClock(T0)) {
    this.engine = new InlineEngine(def, { clock });
  }

  get ex() {
    return this.engine.exchange;
  }

  submit(c: Command): ResultCode {
    this.sent.push(new Command().copyFrom(c));
    return this.engine.submit(c);
  }

  #c(type: number): Command {
    this.cmd.clear().type = type;
    return this.cmd;
  }

  market(name: string): number {
    const ci = this.ex.options.contractIndex(name);
    if (ci < 0) throw new Error(`no contract ${name}`);
    return this.ex.options.marketOf[ci]!;
  }

  fund(uid: number, amount: string): ResultCode {
    const cur = this.ex.currencyIndex('USDT');
    const c = this.#c(CommandType.Credit);
    c.uid = uid; c.kind = AccountKind.Options; c.sub = 0; c.currency = cur;
    c.amount = this.ex.ledger.parse('USDT', amount) as number;
    return this.submit(c);
  }

  /** Credits the options insurance fund (the liquidator's options account). */
  fundInsurance(amount: string): ResultCode {
    return this.fund(INSURANCE_UID, amount);
  }

  /** The journaled mark of contract `name`, in ticks, and its delta (10^-4). */
  mark(name: string, ticks: number, delta = 0): ResultCode {
    const c = this.#c(CommandType.OptionsSetMark);
    c.market = this.market(name); c.price = ticks; c.amount = delta;
    return this.submit(c);
  }

  /** OptionsLiquidate of uid's USDT options account. */
  liquidate(uid: number): ResultCode {
    const c = this.#c(CommandType.OptionsLiquidate);
    c.uid = uid; c.currency = this.ex.currencyIndex('USDT');
    return this.submit(c);
  }

  /** OptionsSetMmp of uid on BTC_USDT: window and frozen period in ms, limits in hundredths. */
  setMmp(uid: number, window: number, frozenPeriod: number, qtyLimit: number, deltaLimit: number): ResultCode {
    const c = this.#c(CommandType.OptionsSetMmp);
    c.uid = uid; c.sub = 0; c.price = window; c.amount = frozenPeriod; c.iceberg = qtyLimit; c.toUid = deltaLimit;
    return this.submit(c);
  }

  resetMmp(uid: number): ResultCode {
    const c = this.#c(CommandType.OptionsResetMmp);
    c.uid = uid; c.sub = 0;
    return this.submit(c);
  }

  /** Index of BTC_USDT in option ticks (0.1 USDT). */
  index(ticks: number): ResultCode {
    const c = this.#c(CommandType.OptionsSetIndex);
    c.sub = 0; c.price = ticks;
    return this.submit(c);
  }

  /** Places a limit order: size signed (0 with close), price ticks. */
  order(uid: number, name: string, size: number, price: number, opts: { tif?: number; flags?: number } = {}): ResultCode {
    const c = this.#c(CommandType.PlaceOrder);
    c.uid = uid; c.market = this.market(name); c.kind = AccountKind.Options; c.sub = 0;
    c.side = size >= 0 ? Side.Buy : Side.Sell; c.amount = Math.abs(size); c.price = price;
    c.orderType = OrderType.Limit; c.tif = opts.tif ?? TimeInForce.Gtc; c.toKind = opts.flags ?? 0;
    return this.submit(c);
  }

  /** A market order (price 0): size signed, tif ioc unless told. */
  marketOrder(uid: number, name: string, size: number, tif: number = TimeInForce.Ioc): ResultCode {
    const c = this.#c(CommandType.PlaceOrder);
    c.uid = uid; c.market = this.market(name); c.kind = AccountKind.Options; c.sub = 0;
    c.side = size >= 0 ? Side.Buy : Side.Sell; c.amount = Math.abs(size); c.price = 0;
    c.orderType = OrderType.Market; c.tif = tif;
    return this.submit(c);
  }

  /** The liquidator's market IOC closing what it holds of `name` (OptionsFlag.Liquidation). */
  liquidatorClose(name: string): ResultCode {
    const c = this.#c(CommandType.PlaceOrder);
    c.uid = INSURANCE_UID; c.market = this.market(name); c.kind = AccountKind.Options; c.sub = 0; c.side = Side.Buy;
    c.orderType = OrderType.Market; c.tif = TimeInForce.Ioc; c.toKind = OptionsFlag.Liquidation;
    return this.submit(c);
  }

  /** Amends order `orderId`: price ticks and new total size (0 keeps either). */
  amend(uid: number, name: string, orderId: number, price: number, amount: number): ResultCode {
    const c = this.#c(CommandType.AmendOrder);
    c.uid = uid; c.market = this.market(name); c.orderId = orderId; c.price = price; c.amount = amount;
    return this.submit(c);
  }

  cancel(uid: number, name: string, orderId: number, reason = 0): ResultCode {
    const c = this.#c(CommandType.CancelOrder);
    c.uid = uid; c.market = this.market(name); c.orderId = orderId; c.tif = reason;
    return this.submit(c);
  }

  cancelAll(uid: number, name: string): ResultCode {
    const c = this.#c(CommandType.CancelAll);
    c.uid = uid; c.market = this.market(name);
    return this.submit(c);
  }

  settle(expiration: number, ticks: number): ResultCode {
    const c = this.#c(CommandType.OptionsSettle);
    c.sub = 0; c.amount = expiration; c.price = ticks;
    return this.submit(c);
  }

  /** uid's options account (available, total) in USDT units. */
  account(uid: number): [bigint, bigint] {
    const cur = this.ex.currencyIndex('USDT');
    return [this.ex.ledger.options.available(uid, cur), this.ex.ledger.options.total(uid, cur)];
  }

  position(uid: number, name: string): { size: number; cost: bigint; pnl: bigint } | undefined {
    const r = this.ex.options.find(uid, this.ex.options.contractIndex(name));
    return r < 0 ? undefined : this.ex.options.rows[r];
  }
}
