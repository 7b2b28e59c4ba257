/**
 * The exchange-core generator's stream (bench/core/ec-generator.ts) as engine Commands, with the ledger.
 *
 * `ecDefinition(markets)`: spot markets `BX<m>_USD` (price and amount precision 0, currencies at scale 2, so
 * one lot is 100 base units and one tick·lot 100 quote units), 1,000 users per market, fees 0.2 % taker and
 * 0.1 % maker. Every currency is narrow: maxSupply × 10^2 ≤ 2^53 (see src/core/ledger/currencies.ts), and
 * every user is credited CREDIT_UNITS of its market's base and of USD once, before anything is timed; that is
 * ~10^4 times the largest hold one order can take, so no place is rejected for funds.
 *
 * `buildEngineStream(ec, markets, perMarket)`: the credits, then each market's copy of the EC pre-fill, then
 * `perMarket` benchmark commands of each copy, interleaved round-robin (market 0, 1, …). Copy m uses users
 * m·1000 + 1 … and its own market. Place → PlaceOrder (limit GTC / IOC / FOK as generated), cancel →
 * CancelOrder, move → AmendOrder(price, amount 0 = keep), reduce → AmendOrder(price 0 = keep, amount = new
 * total = filled + new remaining). The engine numbers accepted places 1, 2, … across all markets; the
 * builder assigns the same numbers in the same order and maps each copy's generator ids onto them, so the
 * mapping holds exactly when every place is accepted (the bench checks `exchange.lastOrderId` and the
 * rejection count after the first pass).
 *
 * The stream is a struct of typed arrays; `load(i, cmd)` fills one reused Command, allocating nothing.
 */
import { type Command, CommandType } from '../../src/core/command.js';
import type { ExchangeDefinition } from '../../src/core/exchange/exchange-definition.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { OrderType } from '../../src/core/matching/order-types.js';
import { type CommandStream, Op, PlaceType } from '../core/stream.js';

export const USERS_PER_MARKET = 1000;
/** Units (scale 2) credited per user and currency: 10^10 whole units. */
export const CREDIT_UNITS = 1e12;
const CURRENCY_SCALE = 2;
/** Whole units: 9·10^13 × 10^2 = 9·10^15 ≤ 2^53, so amounts stay plain numbers. */
const MAX_SUPPLY = '90000000000000';

export function ecDefinition(markets: number): ExchangeDefinition {
  const users = [];
  for (let u = 1; u <= markets * USERS_PER_MARKET; u++) users.push({ uid: u });
  return {
    currencies: [
      { code: 'USD', scale: CURRENCY_SCALE, maxSupply: MAX_SUPPLY },
      ...Array.from({ length: markets }, (_, m) => ({ code: `BX${m}`, scale: CURRENCY_SCALE, maxSupply: MAX_SUPPLY })),
    ],
    markets: Array.from({ length: markets }, (_, m) => ({
      id: `BX${m}_USD`, base: `BX${m}`, quote: 'USD', precision: 0, amount_precision: 0, fee: '0.2', maker_fee_rate: '0.1',
    })),
    users,
  };
}

export class EngineStream {
  readonly length: number;
  /** Commands [0, prefill): credits and every copy's pre-fill, applied untimed. */
  prefill = 0;
  /** PlaceOrders in the stream (= the engine's last order id when all are accepted). */
  places = 0;
  readonly markets: number;
  /**
   * -1: spot. Otherwise the stream trades a perpetual contract settled in this currency index: credits go to
   * users' futures accounts and orders carry kind Futures, sub = the settle currency.
   */
  futuresSettle = -1;
  /** The account kind of a futures stream's credits and orders: Futures, or Delivery on a delivery contract. */
  futuresKind: number = AccountKind.Futures;
  readonly type: Uint8Array;
  readonly uid: Int32Array;
  readonly market: Uint8Array;
  readonly orderId: Float64Array;
  readonly side: Uint8Array;
  readonly orderType: Uint8Array;
  readonly tif: Uint8Array;
  readonly price: Float64Array;
  readonly amount: Float64Array;
  /** Generator kind per command (Kind in stream.ts), for the realized mix; 0 for credits. Credits keep their currency index in `market`. */
  readonly kind: Uint8Array;

  constructor(length: number, markets: number) {
    this.length = length;
    this.markets = markets;
    this.type = new Uint8Array(length);
    this.uid = new Int32Array(length);
    this.market = new Uint8Array(length);
    this.orderId = new Float64Array(length);
    this.side = new Uint8Array(length);
    this.orderType = new Uint8Array(length);
    this.tif = new Uint8Array(length);
    this.price = new Float64Array(length);
    this.amount = new Float64Array(length);
    this.kind = new Uint8Array(length);
  }

  /** Fills `c` with command `i` (every field the engine reads); returns it. */
  load(i: number, c: Command): Command {
    c.type = this.type[i]!;
    c.seq = 0; c.time = 0;
    const credit = this.type[i] === CommandType.Credit;
    c.uid = this.uid[i]!;
    c.market = credit ? 0 : this.market[i]!;
    c.orderId = this.orderId[i]!;
    c.side = this.side[i]!;
    c.orderType = this.orderType[i]!;
    c.tif = this.tif[i]!;
    c.price = this.price[i]!;
    c.amount = this.amount[i]!;
    c.iceberg = 0; c.stpAct = 0; c.stpId = 0; c.reserved = 0;
    c.currency = credit ? this.market[i]! : 0;
    const futures = this.futuresSettle >= 0;
    c.kind = futures ? this.futuresKind : credit ? AccountKind.Spot : 0;
    c.sub = futures ? (credit ? c.currency : this.futuresSettle) : 0;
    c.toUid = 0; c.toKind = 0; c.toSub = 0; c.text = '';
    return c;
  }
}

/** Converts `perMarket` benchmark commands (after the pre-fill) of `ec` into `markets` interleaved copies. @allocates */
export function buildEngineStream(ec: CommandStream, markets: number, perMarket: number): EngineStream {
  const benchEnd = Math.min(ec.length, ec.prefill + perMarket);
  const credits = markets * USERS_PER_MARKET * 2;
  const s = new EngineStream(credits + markets * benchEnd, markets);
  let maxId = 0;
  for (let i = 0; i < benchEnd; i++) maxId = Math.max(maxId, ec.orderId[i]!);
  const engineId = new Float64Array(markets * (maxId + 1));
  const owner = new Int32Array(maxId + 1);
  for (let i = 0; i < benchEnd; i++) if (ec.op[i] === Op.Place) owner[ec.orderId[i]!] = ec.userId[i]!;

  let k = 0;
  for (let m = 0; m < markets; m++) {
    for (let u = 1; u <= USERS_PER_MARKET; u++) {
      const uid = m * USERS_PER_MARKET + u;
      for (const currency of [0, 1 + m]) {
        s.type[k] = CommandType.Credit; s.uid[k] = uid; s.market[k] = currency; s.amount[k] = CREDIT_UNITS;
        k++;
      }
    }
  }
  const emit = (i: number, m: number): void => {
    const gid = ec.orderId[i]!;
    const base = m * (maxId + 1);
    s.market[k] = m;
    s.kind[k] = ec.kind[i]!;
    s.uid[k] = m * USERS_PER_MARKET + owner[gid]!;
    switch (ec.op[i]) {
      case Op.Place:
        s.type[k] = CommandType.PlaceOrder;
        s.side[k] = ec.side[i]!;
        s.orderType[k] = ec.type[i] === PlaceType.Market ? OrderType.Market : OrderType.Limit;
        s.tif[k] = ec.tif[i]!;
        s.price[k] = ec.price[i]!;
        s.amount[k] = ec.amount[i]!;
        engineId[base + gid] = ++s.places;
        break;
      case Op.Cancel:
        s.type[k] = CommandType.CancelOrder;
        s.orderId[k] = engineId[base + gid]!;
        break;
      case Op.Move:
        s.type[k] = CommandType.AmendOrder;
        s.orderId[k] = engineId[base + gid]!;
        s.price[k] = ec.price[i]!;
        break;
      case Op.Reduce:
        s.type[k] = CommandType.AmendOrder;
        s.orderId[k] = engineId[base + gid]!;
        s.amount[k] = ec.total[i]!;
        break;
      default:
        throw new Error(`ec-engine-stream: unknown op ${ec.op[i]} at ${i}`);
    }
    k++;
  };
  for (let i = 0; i < ec.prefill; i++) for (let m = 0; m < markets; m++) emit(i, m);
  s.prefill = k;
  for (let i = ec.prefill; i < benchEnd; i++) for (let m = 0; m < markets; m++) emit(i, m);
  return s;
}

/**
 * The EC stream on one linear perpetual, `BX0_USD` settled in USD (quanto 1, price tick 1, USD at scale 2, so one
 * contract at p ticks is worth p × 100 units): every user's futures account is credited twice CREDIT_UNITS (~10^4
 * times the margin of the largest position the stream builds), leverage stays at the
 * contract's default (10), and every fill opens, grows, shrinks or flips positions with margin, fees and realised
 * PnL. Risk limits and order counts are set out of reach so no place is refused (order ids line up as in the spot
 * stream). There is no mark price, so no price band applies. FOK places become IOC: a futures FOK that cannot
 * fill is refused (Gate's ORDER_FOK) and would get no id.
 */
/**
 * The perpetual of the futures scenario, or (`delivery`) the same contract dated 2099-12-31 (a delivery contract
 * that never reaches its delisting window in a run): the delivery scenario measures the dated-contract checks.
 */
export function ecFuturesDefinition(delivery = false): ExchangeDefinition {
  const users = [];
  for (let u = 1; u <= USERS_PER_MARKET; u++) users.push({ uid: u });
  return {
    currencies: [{ code: 'USD', scale: CURRENCY_SCALE, maxSupply: MAX_SUPPLY }],
    markets: [],
    users,
    futures: { contracts: [{
      ...(delivery ? { name: 'BX0_USD_20991231', expire_time: Date.UTC(2099, 11, 31) / 1000 } : { name: 'BX0_USD' }), settle: 'usd', quanto_multiplier: '1', order_price_round: '1', leverage_max: '100', maintenance_rate: '0.005',
      maker_fee_rate: '-0.0001', taker_fee_rate: '0.00075', risk_limit_base: '100000000000', risk_limit_step: '100000000000',
      risk_limit_max: '100000000000', order_size_max: 1_000_000_000, orders_limit: 1_000_000,
    }] },
  };
}

/** The first `perContract` benchmark commands (after the pre-fill) of `ec` on the perpetual of ecFuturesDefinition. @allocates */
export function buildFuturesEngineStream(ec: CommandStream, perContract: number, delivery = false): EngineStream {
  const spot = buildEngineStream(ec, 1, perContract);
  spot.futuresSettle = 0;
  spot.futuresKind = delivery ? AccountKind.Delivery : AccountKind.Futures;
  for (let i = 0; i < spot.length; i++) {
    if (spot.type[i] === CommandType.Credit) {
      // Both of a user's credits (USD and the spot base) fund its futures account in USD.
      spot.market[i] = 0;
    } else if (spot.type[i] === CommandType.PlaceOrder && spot.tif[i] === 4) {
      spot.tif[i] = 2;
    }
  }
  return spot;
}
