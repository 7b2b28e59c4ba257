/**
 * The spot channels of the WebSocket endpoint and how a subscription's payload names uWebSockets.js topics.
 *
 *   channel                  payload                              topic key(s)               private
 *   spot.trades              [pair, …]                            pair                       no
 *   spot.tickers             [pair, …]                            pair                       no
 *   spot.book_ticker         [pair, …]                            pair                       no
 *   spot.candlesticks        [interval, pair]                     interval_pair              no
 *   spot.obu                 ["ob.<pair>.<50|400>", …]            ob.pair.depth              no
 *   spot.order_book_update   [pair, "20ms"|"100ms"]              pair.interval              no
 *   spot.order_book          [pair, level, "100ms"|"1000ms"]     pair.level.interval        no
 *   spot.orders              [pair | "!all", …]                   uid.pair / uid.!all        yes
 *   spot.usertrades          [pair | "!all", …]                   uid.pair / uid.!all        yes
 *   spot.balances            none                                 uid                        yes
 *   spot.priceorders         [pair | "!all", …]                   uid.pair / uid.!all        yes
 *
 * A topic is `<channel>|<key>`. Resolution is pure: it validates the payload against the exchange's markets
 * and answers the topics — each public one with its market and parameters, so the server can send a new
 * subscriber the channel's current state — or an error code and message (envelope.ts codes). Allocates the
 * topic list.
 */
import { INTERVAL_NAMES } from '../market-data/intervals.js';
import { WsErrorCode } from './envelope.js';

export const PUBLIC_CHANNELS = [
  'spot.trades', 'spot.tickers', 'spot.book_ticker', 'spot.candlesticks', 'spot.obu', 'spot.order_book_update', 'spot.order_book',
] as const;
export const PRIVATE_CHANNELS = ['spot.orders', 'spot.usertrades', 'spot.balances', 'spot.priceorders'] as const;
export type Channel = (typeof PUBLIC_CHANNELS)[number] | (typeof PRIVATE_CHANNELS)[number];

export const isChannel = (c: string): c is Channel =>
  (PUBLIC_CHANNELS as readonly string[]).includes(c) || (PRIVATE_CHANNELS as readonly string[]).includes(c);
export const isPrivateChannel = (c: string): boolean => (PRIVATE_CHANNELS as readonly string[]).includes(c);

/** Depths of spot.obu and the window each legacy update interval covers. */
export const OBU_DEPTHS: readonly number[] = [50, 400];
export const LEGACY_WINDOWS: Readonly<Record<string, number>> = { '20ms': 20, '100ms': 100 };
export const SNAPSHOT_LEVELS: readonly number[] = [1, 5, 10, 20, 50, 100];
export const SNAPSHOT_INTERVALS: Readonly<Record<string, number>> = { '100ms': 100, '1000ms': 1000 };
/** Largest number of entries one subscription payload may name. */
export const MAX_PAYLOAD_ENTRIES = 100;

/**
 * A subscription payload as its list of names: absent means none; otherwise an array of at most
 * MAX_PAYLOAD_ENTRIES strings, else the message every endpoint answers.
 */
export function payloadStrings(payload: unknown): { ok: true; items: string[] } | { ok: false; message: string } {
  const list = payload === undefined || payload === null ? [] : payload;
  if (!Array.isArray(list)) return { ok: false, message: 'payload must be an array' };
  if (list.length > MAX_PAYLOAD_ENTRIES) return { ok: false, message: `payload has more than ${MAX_PAYLOAD_ENTRIES} entries` };
  if (!list.every((x) => typeof x === 'string')) return { ok: false, message: 'payload entries must be strings' };
  return { ok: true, items: list };
}

export const topicOf = (channel: string, key: string): string => `${channel}|${key}`;

/**
 * The entries after the user id of a derivatives private payload (`[uid, contract | "!all", …]`, Gate's: ccxt.pro
 * sends its `uid` option first), once the id is the signer's `uid`; or a message. @allocates
 */
export function userItems(payload: unknown, uid: number): { ok: true; items: string[] } | { ok: false; message: string } {
  if (!Array.isArray(payload) || payload.length === 0) return { ok: false, message: 'payload must start with your user id' };
  if (payload.length > MAX_PAYLOAD_ENTRIES + 1) return { ok: false, message: `payload has more than ${MAX_PAYLOAD_ENTRIES} entries` };
  if (!payload.every((x) => typeof x === 'string')) return { ok: false, message: 'payload entries must be strings' };
  const [user, ...items] = payload;
  if (user !== String(uid)) return { ok: false, message: 'the payload\'s user id is not the signing key\'s user' };
  return { ok: true, items };
}

/** The market of a public topic and the parameters its first push needs. */
export interface Target {
  readonly market: number;
  /** Levels of a book channel (spot.obu, spot.order_book_update, spot.order_book); 0 otherwise. */
  readonly depth: number;
  /** spot.order_book's snapshot period in ms; 0 otherwise. */
  readonly intervalMs: number;
  /** spot.candlesticks' interval name (e.g. "1m"); "" otherwise. */
  readonly interval: string;
}

/** What a resolved subscription names: topics, and for public channels the target of each (same order). */
export interface Resolved {
  readonly topics: readonly string[];
  /** One entry per topic for public channels; empty for private ones. */
  readonly targets: readonly Target[];
}

export type Resolution = { readonly ok: true; readonly value: Resolved }
  | { readonly ok: false; readonly code: WsErrorCode; readonly message: string };

const fail = (code: WsErrorCode, message: string): Resolution => ({ ok: false, code, message });
const ok = (topics: string[], targets: Target[] = []): Resolution => ({ ok: true, value: { topics, targets } });
const target = (market: number, depth = 0, intervalMs = 0, interval = ''): Target => ({ market, depth, intervalMs, interval });

/**
 * The topics of `channel` with `payload`. `marketIndex` maps a pair to its index (negative when unknown);
 * `uid` is the authenticated user for private channels (0 for public ones).
 */
export function resolveSubscription(channel: Channel, payload: unknown, marketIndex: (pair: string) => number, uid: number): Resolution {
  const list = payloadStrings(payload);
  if (!list.ok) return fail(WsErrorCode.InvalidArgument, list.message);
  const items = list.items;
  const pairCheck = (p: string): string | undefined => (marketIndex(p) < 0 ? `unknown currency pair: ${p.slice(0, 40)}` : undefined);
  switch (channel) {
    case 'spot.trades':
    case 'spot.tickers':
    case 'spot.book_ticker': {
      if (items.length === 0) return fail(WsErrorCode.InvalidArgument, 'payload must name at least one currency pair');
      for (const p of items) {
        const e = pairCheck(p);
        if (e !== undefined) return fail(WsErrorCode.InvalidArgument, e);
      }
      return ok(items.map((p) => topicOf(channel, p)), items.map((p) => target(marketIndex(p))));
    }
    case 'spot.candlesticks': {
      if (items.length !== 2) return fail(WsErrorCode.InvalidArgument, 'payload must be [interval, currency_pair]');
      const [interval, pair] = items as [string, string];
      if (!(INTERVAL_NAMES as readonly string[]).includes(interval)) return fail(WsErrorCode.InvalidArgument, `unknown interval: ${interval.slice(0, 16)}`);
      const e = pairCheck(pair);
      return e !== undefined ? fail(WsErrorCode.InvalidArgument, e)
        : ok([topicOf(channel, `${interval}_${pair}`)], [target(marketIndex(pair), 0, 0, interval)]);
    }
    case 'spot.obu': {
      if (items.length === 0) return fail(WsErrorCode.InvalidArgument, 'payload must name at least one "ob.<pair>.<depth>"');
      const books: Target[] = [];
      for (const s of items) {
        const m = /^ob\.([^.]+)\.([0-9]+)$/.exec(s);
        const depth = m === null ? 0 : Number(m[2]);
        if (m === null || !OBU_DEPTHS.includes(depth)) return fail(WsErrorCode.InvalidArgument, `invalid payload entry: ${s.slice(0, 40)} (ob.<pair>.50 or ob.<pair>.400)`);
        const market = marketIndex(m[1]!);
        if (market < 0) return fail(WsErrorCode.InvalidArgument, `unknown currency pair: ${m[1]!.slice(0, 40)}`);
        books.push(target(market, depth));
      }
      return ok(items.map((s) => topicOf(channel, s)), books);
    }
    case 'spot.order_book_update': {
      if (items.length < 2 || items.length > 3) return fail(WsErrorCode.InvalidArgument, 'payload must be [currency_pair, "20ms"|"100ms"]');
      const [pair, interval] = items as [string, string];
      const depth = LEGACY_WINDOWS[interval];
      if (depth === undefined) return fail(WsErrorCode.InvalidArgument, 'interval must be "20ms" or "100ms"');
      const market = marketIndex(pair);
      if (market < 0) return fail(WsErrorCode.InvalidArgument, `unknown currency pair: ${pair.slice(0, 40)}`);
      return ok([topicOf(channel, `${pair}.${interval}`)], [target(market, depth)]);
    }
    case 'spot.order_book': {
      if (items.length !== 3) return fail(WsErrorCode.InvalidArgument, 'payload must be [currency_pair, level, interval]');
      const [pair, level, interval] = items as [string, string, string];
      const depth = Number(level);
      const intervalMs = SNAPSHOT_INTERVALS[interval];
      if (!SNAPSHOT_LEVELS.includes(depth) || !/^[0-9]+$/.test(level)) return fail(WsErrorCode.InvalidArgument, `level must be one of ${SNAPSHOT_LEVELS.join(', ')}`);
      if (intervalMs === undefined) return fail(WsErrorCode.InvalidArgument, 'interval must be "100ms" or "1000ms"');
      const market = marketIndex(pair);
      if (market < 0) return fail(WsErrorCode.InvalidArgument, `unknown currency pair: ${pair.slice(0, 40)}`);
      return ok([topicOf(channel, `${pair}.${depth}.${interval}`)], [target(market, depth, intervalMs)]);
    }
    case 'spot.balances':
      return ok([topicOf(channel, String(uid))]);
    case 'spot.orders':
    case 'spot.usertrades':
    case 'spot.priceorders': {
      if (items.length === 0) return fail(WsErrorCode.InvalidArgument, 'payload must name currency pairs or "!all"');
      for (const p of items) {
        const e = p === '!all' ? undefined : pairCheck(p);
        if (e !== undefined) return fail(WsErrorCode.InvalidArgument, e);
      }
      return ok(items.map((p) => topicOf(channel, `${uid}.${p}`)));
    }
  }
}
