/**
 * The public channels of the perpetual-futures WebSocket endpoint (`/v4/ws/fx/{settle}`) and how a payload
 * names topics. Contracts must belong to the endpoint's settle currency.
 *
 *   channel                     payload                                         topic key
 *   futures.trades              [contract, …]                                   contract
 *   futures.tickers             [contract, …]                                   contract
 *   futures.book_ticker         [contract, …]                                   contract
 *   futures.candlesticks        [interval, [mark_|index_]contract]               interval_[prefix]contract
 *   futures.order_book          [contract, level, interval]                     contract.level.interval
 *   futures.order_book_update   [contract, "20ms"|"100ms", level?]               contract.interval.level
 *   futures.obu                 ["ob.<contract>.<50|400>", …]                   ob.contract.depth
 *   futures.public_liquidates   [contract | "!all", …]                          contract | !all.<settle>
 *   futures.contract_stats      [contract, interval]                            contract.interval
 *
 * futures.order_book levels 1, 5, 10, 20, 50, 100, interval "0" (Gate's; every change is pushed whatever it
 * says). futures.order_book_update: "100ms" with level 5, 10, 20, 50 or 100 (default 100), "20ms" with 20.
 * futures.contract_stats intervals: those of REST contract_stats (1s … 30d; futures-stats-pushes.ts).
 * Topics are `<channel>|<key>` (global to the app; contract names are unique across settles). Pure.
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import { CandleKind } from '../market-data/futures-candles.js';
import { INTERVAL_NAMES } from '../market-data/intervals.js';
import { WsErrorCode } from './envelope.js';
import { payloadStrings, topicOf } from './channels.js';
import type { WsResolution } from './ws-host.js';

export const FUTURES_PUBLIC_CHANNELS = [
  'futures.trades', 'futures.tickers', 'futures.book_ticker', 'futures.candlesticks', 'futures.order_book', 'futures.order_book_update',
  'futures.obu', 'futures.public_liquidates', 'futures.contract_stats',
] as const;
export type FuturesChannel = (typeof FUTURES_PUBLIC_CHANNELS)[number];
export const isFuturesChannel = (c: string): c is FuturesChannel => (FUTURES_PUBLIC_CHANNELS as readonly string[]).includes(c);

export const FX_OBU_DEPTHS: readonly number[] = [50, 400];
export const FX_BOOK_LEVELS: readonly number[] = [1, 5, 10, 20, 50, 100];
export const FX_UPDATE_LEVELS: Readonly<Record<string, readonly number[]>> = { '100ms': [5, 10, 20, 50, 100], '20ms': [20] };

/** The topic key of one settle's `!all` futures.public_liquidates. */
export const allLiquidatesKey = (settle: string): string => `!all.${settle}`;

/** What a futures topic's pushes need. */
export interface FxTarget {
  /** Contract index (exchange.futures.contracts). */
  readonly contract: number;
  /** Levels of a book channel; 0 otherwise. */
  readonly depth: number;
  /** futures.candlesticks: interval name and candle kind. */
  readonly interval: string;
  readonly kind: CandleKind;
}

const fail = (code: WsErrorCode, message: string): WsResolution<FxTarget> => ({ ok: false, code, message });
const bad = (message: string): WsResolution<FxTarget> => fail(WsErrorCode.InvalidArgument, message);
const target = (contract: number, depth = 0, interval = '', kind: CandleKind = CandleKind.Trade): FxTarget => ({ contract, depth, interval, kind });

/** The topics of `channel` with `payload` on the endpoint of `settle`. */
export function resolveFuturesSubscription(ex: Exchange, settle: string, channel: FuturesChannel, payload: unknown): WsResolution<FxTarget> {
  const list = payloadStrings(payload);
  if (!list.ok) return bad(list.message);
  const items = list.items;
  const contractOf = (name: string): number => ex.futures.contractIndex(settle, name);
  const unknown = (name: string): WsResolution<FxTarget> => bad(`unknown contract: ${name.slice(0, 40)} (settle ${settle})`);
  const one = (topics: string[], targets: FxTarget[]): WsResolution<FxTarget> => ({ ok: true, value: { topics, targets } });
  switch (channel) {
    case 'futures.trades':
    case 'futures.tickers':
    case 'futures.book_ticker': {
      if (items.length === 0) return bad('payload must name at least one contract');
      const targets: FxTarget[] = [];
      for (const name of items) {
        const ci = contractOf(name);
        if (ci < 0) return unknown(name);
        targets.push(target(ci));
      }
      return one(items.map((name) => topicOf(channel, name)), targets);
    }
    case 'futures.public_liquidates': {
      if (items.length === 0) return bad('payload must name at least one contract or "!all"');
      const targets: FxTarget[] = [];
      const topics: string[] = [];
      for (const name of items) {
        const ci = name === '!all' ? -1 : contractOf(name);
        if (ci < 0 && name !== '!all') return unknown(name);
        targets.push(target(ci));
        topics.push(topicOf(channel, name === '!all' ? allLiquidatesKey(settle) : name));
      }
      return one(topics, targets);
    }
    case 'futures.contract_stats': {
      if (items.length !== 2) return bad('payload must be [contract, interval]');
      const [name, interval] = items as [string, string];
      if (!(INTERVAL_NAMES as readonly string[]).includes(interval)) return bad(`unknown interval: ${interval.slice(0, 16)}`);
      const ci = contractOf(name);
      if (ci < 0) return unknown(name);
      return one([topicOf(channel, `${name}.${interval}`)], [target(ci, 0, interval)]);
    }
    case 'futures.candlesticks': {
      if (items.length !== 2) return bad('payload must be [interval, contract]');
      const [interval, full] = items as [string, string];
      if (!(INTERVAL_NAMES as readonly string[]).includes(interval)) return bad(`unknown interval: ${interval.slice(0, 16)}`);
      const [kind, name] = full.startsWith('mark_') ? [CandleKind.Mark, full.slice(5)]
        : full.startsWith('index_') ? [CandleKind.Index, full.slice(6)] : [CandleKind.Trade, full];
      const ci = contractOf(name);
      if (ci < 0) return unknown(full);
      return one([topicOf(channel, `${interval}_${full}`)], [target(ci, 0, interval, kind)]);
    }
    case 'futures.order_book': {
      if (items.length < 2 || items.length > 3) return bad('payload must be [contract, level, interval]');
      const [name, level, interval = '0'] = items as [string, string, string?];
      const depth = Number(level);
      if (!/^[0-9]+$/.test(level) || !FX_BOOK_LEVELS.includes(depth)) return bad(`level must be one of ${FX_BOOK_LEVELS.join(', ')}`);
      if (interval !== '0') return bad('interval must be "0"');
      const ci = contractOf(name);
      if (ci < 0) return unknown(name);
      return one([topicOf(channel, `${name}.${depth}.${interval}`)], [target(ci, depth)]);
    }
    case 'futures.obu': {
      if (items.length === 0) return bad('payload must name at least one "ob.<contract>.<depth>"');
      const targets: FxTarget[] = [];
      for (const entry of items) {
        const m = /^ob\.([^.]+)\.([0-9]+)$/.exec(entry);
        const depth = m === null ? 0 : Number(m[2]);
        if (m === null || !FX_OBU_DEPTHS.includes(depth)) return bad(`invalid payload entry: ${entry.slice(0, 40)} (ob.<contract>.50 or ob.<contract>.400)`);
        const ci = contractOf(m[1]!);
        if (ci < 0) return unknown(m[1]!);
        targets.push(target(ci, depth));
      }
      return one(items.map((entry) => topicOf(channel, entry)), targets);
    }
    case 'futures.order_book_update': {
      if (items.length < 2 || items.length > 3) return bad('payload must be [contract, "20ms"|"100ms", level]');
      const [name, interval, level] = items as [string, string, string?];
      const levels = FX_UPDATE_LEVELS[interval];
      if (levels === undefined) return bad('interval must be "20ms" or "100ms"');
      const depth = level === undefined ? levels[levels.length - 1]! : Number(level);
      if ((level !== undefined && !/^[0-9]+$/.test(level)) || !levels.includes(depth)) return bad(`level must be one of ${levels.join(', ')} for ${interval}`);
      const ci = contractOf(name);
      if (ci < 0) return unknown(name);
      return one([topicOf(channel, `${name}.${interval}.${depth}`)], [target(ci, depth)]);
    }
  }
}
