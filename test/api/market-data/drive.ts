// Test support: an EmbeddedExchange whose commands also feed a MarketDataFeed, as the server wires it.
import { SimClock } from '../../../src/core/clock.js';
import { Command, CommandType } from '../../../src/core/command.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { parseCreateOrder } from '../../../src/gate/spot-order-request.js';
import { MarketDataFeed } from '../../../src/api/market-data/market-data-feed.js';
import { EmbeddedExchange } from '../../../src/sim/embedded-exchange.js';
import type { SimConfig } from '../../../src/sim/sim-config.js';

export const START_US = Date.UTC(2026, 0, 1) * 1000;

export const CONFIG: SimConfig = {
  currency_pairs: [
    { id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 4, min_base_amount: '0.0001', fee: '0.2' },
    { id: 'ETH_USDT', base: 'ETH', quote: 'USDT', precision: 2, amount_precision: 4, min_base_amount: '0.0001', fee: '0.2' },
  ],
  users: [
    { uid: 1, balances: { spot: { USDT: '100000000', BTC: '1000', ETH: '10000' } } },
    { uid: 2, balances: { spot: { USDT: '100000000', BTC: '1000', ETH: '10000' } } },
  ],
};

export class Driver {
  readonly clock = new SimClock(START_US);
  readonly ex = EmbeddedExchange.create(CONFIG, { clock: this.clock });
  readonly feed = new MarketDataFeed(this.ex.exchange);
  readonly cmd = new Command();

  /** Places an order at the current time; returns the order id (throws on a rejection). */
  order(uid: number, pair: string, side: 'buy' | 'sell', price: string, amount: string, tif = 'gtc'): number {
    const c = this.cmd;
    const parsed = parseCreateOrder(this.ex.exchange, uid, { currency_pair: pair, side, price, amount, time_in_force: tif }, c);
    if (parsed !== ResultCode.Ok) throw new Error(`rejected ${parsed}`);
    return this.#submit(c);
  }

  cancel(uid: number, pair: string, orderId: number): void {
    const c = this.cmd.clear();
    c.type = CommandType.CancelOrder;
    c.uid = uid; c.market = this.ex.exchange.marketIndex(pair); c.orderId = orderId;
    this.#submit(c);
  }

  amend(uid: number, pair: string, orderId: number, price: number, amount: number): void {
    const c = this.cmd.clear();
    c.type = CommandType.AmendOrder;
    c.uid = uid; c.market = this.ex.exchange.marketIndex(pair); c.orderId = orderId; c.price = price; c.amount = amount;
    this.#submit(c);
  }

  /** A trade of `amount` at `price` between users 1 (maker) and 2 (taker, on `side`). */
  trade(pair: string, side: 'buy' | 'sell', price: string, amount: string): void {
    this.order(1, pair, side === 'buy' ? 'sell' : 'buy', price, amount);
    this.order(2, pair, side, price, amount, 'ioc');
  }

  book(pair: string): ReturnType<typeof this.ex.engine.books.at> {
    return this.ex.engine.books[this.ex.exchange.marketIndex(pair)];
  }

  #submit(c: Command): number {
    const code = this.ex.engine.submit(c);
    this.feed.onResult(c, this.ex.engine.events);
    if (code !== ResultCode.Ok) throw new Error(`rejected ${code}`);
    return c.orderId;
  }
}
