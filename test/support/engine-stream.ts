// Seeded random engine commands over a small exchange: funds, every order kind, amends, cancels.
import { Command, CommandType } from '../../src/core/command.js';
import type { ExchangeDefinition } from '../../src/core/exchange/exchange-definition.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { OrderType, Side, StpAct, TimeInForce } from '../../src/core/matching/order-types.js';
import { Prng } from '../../src/core/prng.js';

export const USERS = [101, 102, 103, 104, 105, 106] as const;

/** BTC_USDT and ETH_USDT at small precisions so trades are frequent; narrow currencies; two STP groups. */
export const ENGINE_DEFINITION: ExchangeDefinition = {
  currencies: [
    { code: 'USDT', scale: 4, maxSupply: '100000000000' },
    { code: 'BTC', scale: 3, maxSupply: '100000000000' },
    { code: 'ETH', scale: 3, maxSupply: '100000000000' },
  ],
  markets: [
    { id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 2, fee: '0.2', maker_fee_rate: '0.1' },
    { id: 'ETH_USDT', base: 'ETH', quote: 'USDT', precision: 2, amount_precision: 1, fee: '0.15' },
  ],
  users: USERS.map((uid) => ({ uid })),
  stp_groups: [{ id: 7, users: [101, 102] }, { id: 9, users: [103] }],
};

/** Produces a deterministic stream; `recentOrders` lets amends and cancels hit live ids. */
export class EngineStream {
  readonly #r: Prng;
  #nextId = 1;

  constructor(seed: number) {
    this.#r = new Prng(seed);
  }

  /** Opening deposits: every user gets every currency. */
  *openings(): Generator<Command> {
    for (const uid of USERS) {
      for (let cur = 0; cur < 3; cur++) {
        const c = new Command();
        c.type = CommandType.Credit; c.uid = uid; c.kind = AccountKind.Spot; c.currency = cur;
        c.amount = cur === 0 ? 2_000_000_000 : 5_000_000;
        yield c;
      }
    }
  }

  /** The next random command (a fresh object). */
  next(): Command {
    const r = this.#r;
    const c = new Command();
    const uid = USERS[r.nextInt(USERS.length)]!;
    c.uid = uid;
    c.market = r.nextInt(2);
    const k = r.nextInt(100);
    const mid = c.market === 0 ? 1000 : 20000;
    if (k < 55) {
      c.type = CommandType.PlaceOrder;
      c.side = r.chance(0.5) ? Side.Buy : Side.Sell;
      c.orderType = r.chance(0.1) ? OrderType.Market : OrderType.Limit;
      c.tif = c.orderType === OrderType.Market ? (r.chance(0.7) ? TimeInForce.Ioc : TimeInForce.Fok) : 1 + r.nextInt(4);
      c.price = c.orderType === OrderType.Market ? 0 : mid - 20 + r.nextInt(41);
      c.amount = c.orderType === OrderType.Market && c.side === Side.Buy ? 1 + r.nextInt(mid * 40) : 1 + r.nextInt(30);
      c.iceberg = c.orderType === OrderType.Limit && r.chance(0.1) ? 1 + r.nextInt(5) : 0;
      c.stpAct = (uid === 101 || uid === 102 || uid === 103) && r.chance(0.5) ? 1 + r.nextInt(3) : StpAct.None;
      if (r.chance(0.01)) c.amount = 10_000_000_000; // beyond balances
      this.#nextId++;
    } else if (k < 75) {
      c.type = CommandType.AmendOrder;
      c.orderId = Math.max(1, this.#nextId - 1 - r.nextInt(30));
      c.price = r.chance(0.5) ? mid - 20 + r.nextInt(41) : 0;
      c.amount = c.price === 0 || r.chance(0.5) ? 1 + r.nextInt(40) : 0;
    } else if (k < 90) {
      c.type = CommandType.CancelOrder;
      c.orderId = Math.max(1, this.#nextId - 1 - r.nextInt(30));
    } else if (k < 93) {
      c.type = CommandType.CancelAll;
      c.side = r.nextInt(3);
    } else if (k < 96) {
      c.type = CommandType.Credit; c.kind = AccountKind.Spot; c.currency = r.nextInt(3); c.amount = 1 + r.nextInt(100_000);
    } else if (k < 98) {
      c.type = CommandType.Debit; c.kind = AccountKind.Spot; c.currency = r.nextInt(3); c.amount = 1 + r.nextInt(10_000_000);
    } else {
      c.type = CommandType.Transfer; c.kind = AccountKind.Spot; c.currency = r.nextInt(3); c.amount = 1 + r.nextInt(1_000_000);
      c.toUid = USERS[r.nextInt(USERS.length)]!; c.toKind = AccountKind.Spot;
    }
    return c;
  }
}
