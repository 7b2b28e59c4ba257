/**
 * The built-in market maker: an ordinary user that quotes a ladder (ladder.ts) on each configured market
 * around a reference price moving by a seeded geometric random walk, and — through a second user, when
 * configured — occasionally takes those quotes with IOC orders so trades print, prices move and candles fill.
 *
 * It trades only by submitting Commands like any client (`submit`, e.g. engine.submit; the command object is
 * reused, so a submit that keeps it must copy it) and reads only what a client could: its own open orders
 * and balances from the exchange's records. Time comes from `tick(nowUs)` (the server's timer or a replay);
 * nothing happens between re-quote periods. Same seed + same tick times + same other traffic → same commands.
 *
 * Each re-quote, per market: the taker may first hit the standing quotes; then the reference moves; orders
 * at a ladder price are kept; a stale order is amended to a missing ladder price on its side unless that
 * could meet one of its own opposite orders, else cancelled; missing levels are placed, in that order
 * (cancels, amends, places), so its own orders never cross one another.
 * Opening trade: on the first re-quote, a market that has never traded is opened by the taker buying the
 * best ask just placed (IOC, that level's size), so the market has a last price, a ticker and candles from
 * the start. It is an ordinary command (journaled like any) and draws nothing from the PRNG, so what
 * follows is the same sequence of random choices as without it.
 * Places and amends are checked against the available balance first (what a rejection would say anyway), so
 * it never asks for funds it lacks. With a threaded engine its view may lag commands in flight; the next
 * re-quote converges.
 * Contracts (`contracts`, market-maker/futures-quotes.ts): after the spot markets, each quoted contract is
 * re-quoted with futures orders from the same users, around its mark price; they draw from a PRNG of their
 * own (seeded from `seed`), so the spot markets' sequence is the same with or without contracts.
 * Costs: O(levels²) per market per re-quote; allocates small arrays per re-quote.
 */
import { Command, CommandType } from '../core/command.js';
import type { Exchange } from '../core/exchange/exchange.js';
import { ConfigError } from '../core/invariant.js';
import { AccountKind } from '../core/ledger/account-kinds.js';
import { OrderType, Side, TimeInForce } from '../core/matching/order-types.js';
import { type Market, parseLots, parsePrice } from '../core/market.js';
import { Prng } from '../core/prng.js';
import { type MarketMakerConfig, parseMarketMakerConfig } from './market-maker/config.js';
import { ladder } from './market-maker/ladder.js';
import { FuturesQuoter } from './market-maker/futures-quotes.js';

export type { MarketMakerConfig } from './market-maker/config.js';

/** Submits one command for the maker; returns its code (or the intake's, for an asynchronous engine). */
export type Submit = (cmd: Command) => number;

interface Quoting {
  readonly index: number;
  readonly market: Market;
  ref: number;
  readonly levels: number;
  readonly spreadBps: number;
  readonly stepBps: number;
  readonly size: number;
  readonly volatility: number;
  readonly drift: number;
}

interface Own { readonly record: number; readonly id: number; readonly side: number; price: number; live: boolean }

export class MarketMaker {
  readonly uid: number;
  readonly takerUid: number;
  readonly #ex: Exchange;
  readonly #submit: Submit;
  readonly #prng: Prng;
  readonly #markets: Quoting[];
  readonly #contracts: FuturesQuoter[];
  readonly #futuresPrng: Prng;
  readonly #periodUs: number;
  readonly #take: number;
  readonly #cmd = new Command();
  #lastUs = -1;
  #nextUs = 0;

  /** Validates `config` against the exchange; throws ConfigError naming a bad field. @allocates */
  constructor(exchange: Exchange, config: MarketMakerConfig, submit: Submit) {
    const c = parseMarketMakerConfig(config);
    this.#ex = exchange;
    this.#submit = submit;
    this.uid = c.uid;
    this.takerUid = c.taker_uid ?? 0;
    this.#prng = new Prng(c.seed ?? 1);
    this.#periodUs = Math.round((c.requote_ms ?? 1000) * 1000);
    this.#take = c.take_probability ?? 0.3;
    this.#markets = c.markets.map((q, i) => {
      const index = exchange.marketIndex(q.market);
      if (index < 0) throw new ConfigError(`market_maker.markets[${i}].market: unknown currency pair ${q.market}`);
      const market = exchange.markets[index]!;
      const ref = parsePrice(market, q.price);
      if (ref < 0) throw new ConfigError(`market_maker.markets[${i}].price: not a price of ${q.market}`);
      const given = q.size === undefined ? market.minLots : parseLots(market, q.size);
      if (given < 0) throw new ConfigError(`market_maker.markets[${i}].size: not an amount of ${q.market}`);
      return {
        index, market, ref, levels: q.levels ?? 5, spreadBps: q.spread_bps ?? 10, stepBps: q.step_bps ?? 5,
        size: Math.max(given, market.minLots), volatility: q.volatility ?? 0.0002, drift: q.drift ?? 0,
      };
    });
    this.#futuresPrng = new Prng((c.seed ?? 1) + 0x5eed);
    /** The spot reference of pair `id` as a decimal number, NaN when not quoted. */
    const spotPrice = (id: string): number => {
      const q = this.#markets.find((m) => m.market.id === id);
      return q === undefined ? Number.NaN : q.ref / 10 ** q.market.priceScale;
    };
    this.#contracts = (c.contracts ?? []).map((k, i) => new FuturesQuoter(exchange, k, `market_maker.contracts[${i}]`, spotPrice));
  }

  /** The reference of a quoted contract's market, in ticks (NaN when not quoted or not yet known). */
  contractReference(market: number): number {
    return this.#contracts.find((q) => q.market === market)?.reference() ?? Number.NaN;
  }

  /** The current reference price of a quoted market, in ticks (NaN when not quoted). */
  reference(market: number): number {
    return this.#markets.find((q) => q.index === market)?.ref ?? Number.NaN;
  }

  /** Advances to `nowUs`; re-quotes (and maybe takes) when a period has passed. Returns commands submitted. */
  tick(nowUs: number): number {
    if (nowUs < this.#nextUs) return 0;
    const opening = this.#lastUs < 0;
    const dt = opening ? 0 : (nowUs - this.#lastUs) / 1e6;
    this.#lastUs = nowUs;
    this.#nextUs = nowUs + this.#periodUs;
    const traded = opening ? this.#ex.trades.marketSequences() : [];
    let sent = 0;
    for (const q of this.#markets) {
      if (this.takerUid > 0 && this.#prng.chance(this.#take)) sent += this.#takeQuotes(q);
      const z = this.#prng.nextGaussian();
      const next = q.ref * Math.exp((q.drift - (q.volatility * q.volatility) / 2) * dt + q.volatility * Math.sqrt(dt) * z);
      q.ref = Math.min(Math.max(next, 2 * q.levels + 2), q.market.maxNotional / q.size / 2);
      sent += this.#requote(q);
      if (opening && this.takerUid > 0 && (traded[q.index] ?? 0) === 0) sent += this.#openingTrade(q);
    }
    for (const f of this.#contracts) {
      const take = this.takerUid > 0 && this.#futuresPrng.chance(this.#take);
      sent += f.tick(dt, this.uid, this.takerUid, take, this.#futuresPrng, this.#cmd, this.#submit);
    }
    return sent;
  }

  /** The taker buys the best ask of the ladder just quoted, IOC, its whole size (see the header). */
  #openingTrade(q: Quoting): number {
    const best = ladder(q.ref, q.levels, q.spreadBps, q.stepBps).asks[0];
    return best === undefined ? 0 : this.#place(q, this.takerUid, Side.Buy, best, this.#lotsAt(q, best), TimeInForce.Ioc);
  }

  #requote(q: Quoting): number {
    const O = this.#ex.orders;
    const { bids, asks } = ladder(q.ref, q.levels, q.spreadBps, q.stepBps);
    const own: Own[] = O.openOf(this.uid, q.index)
      .map((r) => ({ record: r, id: O.id[r]!, side: O.side[r]!, price: O.price[r]!, live: true }));
    const missing = { [Side.Buy]: new Set(bids), [Side.Sell]: new Set(asks) } as Record<number, Set<number>>;
    const stale: Own[] = [];
    for (const o of own) {
      const set = missing[o.side]!;
      if (set.has(o.price)) set.delete(o.price);
      else stale.push(o);
    }
    const crosses = (side: number, price: number, self: Own): boolean => own.some((o) => o !== self && o.live
      && o.side !== side && (side === Side.Buy ? o.price <= price : o.price >= price));
    const amends: [Own, number][] = [];
    let sent = 0;
    for (const o of stale) {
      const set = missing[o.side]!;
      const target = set.values().next();
      if (!target.done && !crosses(o.side, target.value, o)) {
        set.delete(target.value);
        o.price = target.value;
        amends.push([o, target.value]);
      } else {
        o.live = false;
        sent += this.#cancel(q, o.id);
      }
    }
    for (const [o, price] of amends) sent += this.#amend(q, o, price);
    for (const side of [Side.Buy, Side.Sell]) {
      for (const price of [...missing[side]!].sort((a, b) => (side === Side.Buy ? b - a : a - b))) {
        sent += this.#place(q, this.uid, side, price, this.#lotsAt(q, price), TimeInForce.Gtc);
      }
    }
    return sent;
  }

  /** The taker buys or sells across up to three levels of the standing ladder, IOC (the re-quote that follows refills them). */
  #takeQuotes(q: Quoting): number {
    const { bids, asks } = ladder(q.ref, q.levels, q.spreadBps, q.stepBps);
    const buy = this.#prng.chance(0.5);
    const prices = buy ? asks : bids;
    const depth = this.#prng.between(0, Math.min(2, prices.length - 1));
    const price = prices[depth];
    if (price === undefined) return 0;
    const lots = this.#lotsAt(q, price) * this.#prng.between(1, depth + 1);
    return this.#place(q, this.takerUid, buy ? Side.Buy : Side.Sell, price, lots, TimeInForce.Ioc);
  }

  /** Lots per quote at `price`: the configured size, raised to meet the market's minimum notional. */
  #lotsAt(q: Quoting, price: number): number {
    return Math.max(q.size, Math.ceil(q.market.minNotional / price));
  }

  #cancel(q: Quoting, orderId: number): number {
    const c = this.#cmd.clear();
    c.type = CommandType.CancelOrder;
    c.uid = this.uid; c.market = q.index; c.orderId = orderId;
    this.#submit(c);
    return 1;
  }

  #amend(q: Quoting, o: Own, price: number): number {
    const O = this.#ex.orders;
    const L = this.#ex.ledger;
    const left = O.left[o.record]!;
    const need = Number(L.holdUnits(q.index, o.side, OrderType.Limit, price, left));
    const held = Number(L.heldFor(o.id) ?? 0);
    if (need < 0 || need - held > this.#available(this.uid, q, o.side)) {
      o.live = false;
      return this.#cancel(q, o.id);
    }
    const c = this.#cmd.clear();
    c.type = CommandType.AmendOrder;
    c.uid = this.uid; c.market = q.index; c.orderId = o.id; c.price = price;
    this.#submit(c);
    return 1;
  }

  #place(q: Quoting, uid: number, side: number, price: number, lots: number, tif: number): number {
    if (lots > q.market.maxLots || price * lots > q.market.maxNotional) return 0;
    const need = Number(this.#ex.ledger.holdUnits(q.index, side, OrderType.Limit, price, lots));
    if (need < 0 || need > this.#available(uid, q, side)) return 0;
    const c = this.#cmd.clear();
    c.type = CommandType.PlaceOrder;
    c.uid = uid; c.market = q.index; c.side = side; c.orderType = OrderType.Limit; c.tif = tif;
    c.price = price; c.amount = lots;
    this.#submit(c);
    return 1;
  }

  /** Available units of what an order on `side` pays (quote for buys, base for sells). */
  #available(uid: number, q: Quoting, side: number): number {
    const spec = q.market.spec;
    const b = this.#ex.ledger.balance(uid, AccountKind.Spot, 0, side === Side.Buy ? spec.quote : spec.base);
    return b === undefined ? 0 : Number(b.available);
  }
}
