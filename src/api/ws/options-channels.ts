/**
 * The channels of the options WebSocket endpoint (`/v4/ws/options/{settle}`) and how a payload names topics.
 * Contracts and underlyings must belong to the endpoint's settle currency (the underlying's quote, lower case).
 *
 *   channel                         payload                                           topic key
 *   options.contract_tickers        [contract, …] | {underlyings, contracts}          contract
 *   options.trades                  (same)                                            contract
 *   options.mark_price(s)           (same)                                            contract
 *   options.settlements             (same)                                            contract
 *   options.contracts               (same)                                            contract
 *   options.book_ticker             (same)                                            contract
 *   options.contract_candlesticks   [interval, contract] | {interval, underlyings, contracts}   interval_contract
 *   options.ul_tickers              [underlying, …]                                   underlying
 *   options.ul_trades               [underlying, …]                                   underlying
 *   options.ul_price                [underlying, …]                                   underlying
 *   options.ul_candlesticks         [interval, underlying]                            interval_underlying
 *   options.order_book              [contract, level, "0"]                            contract.level.0
 *   options.order_book_update       [contract, "100ms"|"1000ms", level?]               contract.interval.level
 *   private (signed; payload starts with the signer's uid, or is an object {underlyings, contracts} for the signer):
 *   options.orders, options.usertrades, options.positions, options.liquidates, options.position_closes,
 *   options.user_settlements        [uid, contract | "!all", …] | {underlyings, contracts}   settle.uid.contract|!all
 *   options.balances                [uid]                                             settle.uid
 *
 * The object payload (Gate's subscription by underlying) names every listed (unsettled) contract of each
 * underlying plus `contracts`, without repeats; at most MAX_PAYLOAD_ENTRIES names per list and MAX_EXPANDED
 * contracts in all (beyond: error 2 "too many …"). Intervals are Gate's options ones (10s … 7d); order_book levels
 * 1, 5, 10, 20, 50; order_book_update levels 5, 10, 20, 50 (default 50). `options.mark_price` is served beside
 * Gate's current `options.mark_prices` (the older name, which some clients still send); each pushes under its own
 * name. Topics are `<channel>|<key>` (channels.ts). Pure.
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import { WsErrorCode } from './envelope.js';
import { MAX_PAYLOAD_ENTRIES, payloadStrings, topicOf, userItems } from './channels.js';
import type { WsResolution } from './ws-host.js';

export const OPTIONS_PUBLIC_CHANNELS = [
  'options.contract_tickers', 'options.ul_tickers', 'options.trades', 'options.ul_trades', 'options.ul_price', 'options.mark_price',
  'options.mark_prices', 'options.settlements', 'options.contracts', 'options.contract_candlesticks', 'options.ul_candlesticks',
  'options.order_book', 'options.book_ticker', 'options.order_book_update',
] as const;
export const OPTIONS_PRIVATE_CHANNELS = [
  'options.orders', 'options.usertrades', 'options.liquidates', 'options.user_settlements', 'options.position_closes', 'options.balances',
  'options.positions',
] as const;
export type OptionsChannel = (typeof OPTIONS_PUBLIC_CHANNELS)[number];
export type OptionsPrivateChannel = (typeof OPTIONS_PRIVATE_CHANNELS)[number];
export const isOptionsChannel = (c: string): c is OptionsChannel => (OPTIONS_PUBLIC_CHANNELS as readonly string[]).includes(c);
export const isOptionsPrivateChannel = (c: string): c is OptionsPrivateChannel => (OPTIONS_PRIVATE_CHANNELS as readonly string[]).includes(c);

/** Gate's options candlestick intervals. */
export const OPTIONS_INTERVALS: readonly string[] = ['10s', '1m', '5m', '15m', '30m', '1h', '4h', '8h', '1d', '7d'];
export const OP_BOOK_LEVELS: readonly number[] = [1, 5, 10, 20, 50];
export const OP_UPDATE_LEVELS: readonly number[] = [5, 10, 20, 50];
export const OP_UPDATE_INTERVALS: readonly string[] = ['100ms', '1000ms'];
/** Contracts one object payload may expand to. */
const MAX_EXPANDED = 1000;

/** What an options topic's pushes need: a contract or an underlying (-1 for the other), levels and interval. */
export interface OpTarget {
  readonly contract: number;
  readonly underlying: number;
  /** Levels of a book channel; 0 otherwise. */
  readonly depth: number;
  /** A candlestick channel's interval; "" otherwise. */
  readonly interval: string;
}

/** Channels whose payload names contracts (an array of names or the object form). */
const CONTRACT_LISTS: ReadonlySet<string> = new Set(['options.contract_tickers', 'options.trades', 'options.mark_price', 'options.mark_prices',
  'options.settlements', 'options.contracts', 'options.book_ticker']);
const UNDERLYING_LISTS: ReadonlySet<string> = new Set(['options.ul_tickers', 'options.ul_trades', 'options.ul_price']);

type Names = { ok: true; names: string[] } | { ok: false; message: string };
type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const short = (s: string): string => s.slice(0, 40);

/** The contracts and underlyings of one settle currency of the exchange's options. */
export class OptionsScope {
  readonly #ex: Exchange;
  readonly settle: string;

  constructor(ex: Exchange, settle: string) {
    this.#ex = ex;
    this.settle = settle;
  }

  /** The contract named `name` of this settle, or -1. */
  contract(name: string): number {
    const S = this.#ex.options;
    const ci = S.contractIndex(name);
    return ci >= 0 && S.underlyings[S.contracts[ci]!.u]!.quote.toLowerCase() === this.settle ? ci : -1;
  }

  /** The underlying named `name` of this settle, or -1. */
  underlying(name: string): number {
    const S = this.#ex.options;
    const ui = S.underlyingIndex(name);
    return ui >= 0 && S.underlyings[ui]!.quote.toLowerCase() === this.settle ? ui : -1;
  }

  /**
   * The contract names of an object payload `{underlyings?, contracts?}`: every listed contract of each underlying
   * and the named contracts, each once, checked. @allocates
   */
  expand(o: Obj): Names {
    const lists: string[][] = [];
    for (const key of ['underlyings', 'contracts'] as const) {
      const v = o[key];
      if (v === undefined || v === null) { lists.push([]); continue; }
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) return { ok: false, message: `${key} must be an array of names` };
      if (v.length > MAX_PAYLOAD_ENTRIES) return { ok: false, message: `too many ${key}: at most ${MAX_PAYLOAD_ENTRIES}` };
      lists.push(v);
    }
    const [underlyings, contracts] = lists as [string[], string[]];
    if (underlyings.length === 0 && contracts.length === 0) return { ok: false, message: 'payload must name underlyings or contracts' };
    const S = this.#ex.options;
    const names = new Set<string>();
    for (const name of underlyings) {
      const ui = this.underlying(name);
      if (ui < 0) return { ok: false, message: `unknown underlying: ${short(name)} (settle ${this.settle})` };
      S.contracts.forEach((k, ci) => { if (k.u === ui && S.settled[ci] === 0) names.add(k.name); });
    }
    for (const name of contracts) {
      if (this.contract(name) < 0) return { ok: false, message: `unknown contract: ${short(name)} (settle ${this.settle})` };
      names.add(name);
    }
    if (names.size > MAX_EXPANDED) return { ok: false, message: `too many contracts: at most ${MAX_EXPANDED} per subscription` };
    return { ok: true, names: [...names] };
  }
}

const fail = (message: string): WsResolution<OpTarget> => ({ ok: false, code: WsErrorCode.InvalidArgument, message });
const target = (contract: number, underlying = -1, depth = 0, interval = ''): OpTarget => ({ contract, underlying, depth, interval });
const one = (topics: string[], targets: OpTarget[]): WsResolution<OpTarget> => ({ ok: true, value: { topics, targets } });

/** The topics of public `channel` with `payload` on the endpoint of `scope`. */
export function resolveOptionsSubscription(scope: OptionsScope, channel: OptionsChannel, payload: unknown): WsResolution<OpTarget> {
  const contracts = (names: readonly string[], key: (name: string) => string, mk: (ci: number) => OpTarget): WsResolution<OpTarget> => {
    const targets: OpTarget[] = [];
    for (const name of names) {
      const ci = scope.contract(name);
      if (ci < 0) return fail(`unknown contract: ${short(name)} (settle ${scope.settle})`);
      targets.push(mk(ci));
    }
    return one(names.map((n) => topicOf(channel, key(n))), targets);
  };
  if (isObj(payload)) {
    if (!CONTRACT_LISTS.has(channel) && channel !== 'options.contract_candlesticks') return fail('payload must be an array');
    const e = scope.expand(payload);
    if (!e.ok) return fail(e.message);
    if (channel !== 'options.contract_candlesticks') return contracts(e.names, (n) => n, (ci) => target(ci));
    const interval = payload.interval;
    if (typeof interval !== 'string' || !OPTIONS_INTERVALS.includes(interval)) return fail(`interval must be one of ${OPTIONS_INTERVALS.join(', ')}`);
    return contracts(e.names, (n) => `${interval}_${n}`, (ci) => target(ci, -1, 0, interval));
  }
  const l = payloadStrings(payload);
  if (!l.ok) return fail(l.message);
  const items = l.items;
  if (CONTRACT_LISTS.has(channel)) {
    if (items.length === 0) return fail('payload must name at least one contract');
    return contracts(items, (n) => n, (ci) => target(ci));
  }
  if (UNDERLYING_LISTS.has(channel)) {
    if (items.length === 0) return fail('payload must name at least one underlying');
    const targets: OpTarget[] = [];
    for (const name of items) {
      const ui = scope.underlying(name);
      if (ui < 0) return fail(`unknown underlying: ${short(name)} (settle ${scope.settle})`);
      targets.push(target(-1, ui));
    }
    return one(items.map((n) => topicOf(channel, n)), targets);
  }
  switch (channel) {
    case 'options.contract_candlesticks':
    case 'options.ul_candlesticks': {
      if (items.length !== 2) return fail(`payload must be [interval, ${channel === 'options.ul_candlesticks' ? 'underlying' : 'contract'}]`);
      const [interval, name] = items as [string, string];
      if (!OPTIONS_INTERVALS.includes(interval)) return fail(`interval must be one of ${OPTIONS_INTERVALS.join(', ')}`);
      if (channel === 'options.contract_candlesticks') return contracts([name], (n) => `${interval}_${n}`, (ci) => target(ci, -1, 0, interval));
      const ui = scope.underlying(name);
      if (ui < 0) return fail(`unknown underlying: ${short(name)} (settle ${scope.settle})`);
      return one([topicOf(channel, `${interval}_${name}`)], [target(-1, ui, 0, interval)]);
    }
    case 'options.order_book': {
      if (items.length < 2 || items.length > 3) return fail('payload must be [contract, level, "0"]');
      const [name, level, accuracy = '0'] = items as [string, string, string?];
      const depth = Number(level);
      if (!/^[0-9]+$/.test(level) || !OP_BOOK_LEVELS.includes(depth)) return fail(`level must be one of ${OP_BOOK_LEVELS.join(', ')}`);
      if (accuracy !== '0') return fail('accuracy must be "0"');
      return contracts([name], (n) => `${n}.${depth}.0`, (ci) => target(ci, -1, depth));
    }
    case 'options.order_book_update': {
      if (items.length < 2 || items.length > 3) return fail('payload must be [contract, "100ms"|"1000ms", level]');
      const [name, interval, level] = items as [string, string, string?];
      if (!OP_UPDATE_INTERVALS.includes(interval)) return fail('interval must be "100ms" or "1000ms"');
      const depth = level === undefined ? OP_UPDATE_LEVELS[OP_UPDATE_LEVELS.length - 1]! : Number(level);
      if ((level !== undefined && !/^[0-9]+$/.test(level)) || !OP_UPDATE_LEVELS.includes(depth)) return fail(`level must be one of ${OP_UPDATE_LEVELS.join(', ')}`);
      return contracts([name], (n) => `${n}.${interval}.${depth}`, (ci) => target(ci, -1, depth));
    }
    default: return fail(`unknown channel: ${channel}`);
  }
}

/** The topics of private `channel` for the signer `uid` on the endpoint of `scope`. */
export function resolveOptionsPrivate<T>(scope: OptionsScope, channel: OptionsPrivateChannel, payload: unknown, uid: number): WsResolution<T> {
  const bad = (message: string): WsResolution<T> => ({ ok: false, code: WsErrorCode.InvalidArgument, message });
  const topics = (names: readonly string[]): WsResolution<T> =>
    ({ ok: true, value: { topics: names.map((n) => topicOf(channel, `${scope.settle}.${uid}.${n}`)), targets: [] } });
  if (isObj(payload)) {
    if (channel === 'options.balances') return bad('payload must be [user id]');
    const e = scope.expand(payload);
    return e.ok ? topics(e.names) : bad(e.message);
  }
  const u = userItems(payload, uid);
  if (!u.ok) return bad(u.message);
  const items = u.items;
  if (channel === 'options.balances') {
    if (items.length > 0) return bad('payload must be [user id]');
    return { ok: true, value: { topics: [topicOf(channel, `${scope.settle}.${uid}`)], targets: [] } };
  }
  if (items.length === 0) return bad('payload must name contracts or "!all" after the user id');
  for (const name of items) {
    if (name !== '!all' && scope.contract(name) < 0) return bad(`unknown contract: ${short(name)} (settle ${scope.settle})`);
  }
  return topics(items);
}
