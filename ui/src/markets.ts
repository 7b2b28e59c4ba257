/**
 * The markets the server lists — spot pairs, perpetual and delivery contracts of Gate's settle currencies usdt and btc,
 * options of every underlying — and their tickers, kept current by the public ticker channels (`spot.tickers`,
 * `futures.tickers` on the perpetual and delivery sockets, `options.contract_tickers`), which push the current ticker on
 * subscribe and again after each trade or change of the best levels (options: also on each new index).
 *
 * Delivery contracts and options expire: once the engine's time (the latest push's, or the clock form's answer) passes
 * the expiry of a listed one, the lists are read again (1 s after the last read, then 2 s, … at most 30 s apart while
 * nothing changes) until the server no longer lists it, so a settled contract leaves the list as it leaves the REST list.
 */
import { useEffect, useState } from 'preact/hooks';
import { deliverySocketUrl, futuresSocketUrl, optionsSocketUrl, rest, spotSocketUrl } from './api';
import { feed } from './socket';

/** Gate's settle currencies of futures contracts; a settle the server does not serve lists nothing. */
export const SETTLES = ['usdt', 'btc'] as const;

export type MarketKind = 'spot' | 'futures' | 'delivery' | 'options';

/** A market as the views address it. */
export interface MarketRef {
  readonly kind: MarketKind;
  /** Pair or contract name (`BTC_USDT`, `BTC_USDT_20261225`, `BTC_USDT-20261129-60000-C`). */
  readonly name: string;
  /** The settle currency of a contract (`usdt`), as its socket's path names it; '' for spot. */
  readonly settle: string;
  /** When a delivery contract or an option expires (ms since the epoch); 0 for markets that do not. */
  readonly expiresMs: number;
}

export type Ticker = Readonly<Record<string, string>>;

export interface MarketsState {
  readonly loaded: boolean;
  readonly error: string;
  readonly spot: readonly MarketRef[];
  readonly futures: readonly MarketRef[];
  readonly delivery: readonly MarketRef[];
  readonly options: readonly MarketRef[];
  /** By `refKey`. */
  readonly tickers: ReadonlyMap<string, Ticker>;
  /** The engine's time of the latest push (ms; 0 before any). */
  readonly engineTimeMs: number;
}

export const refKey = (r: MarketRef): string => (r.kind === 'spot' ? `spot/${r.name}` : r.kind === 'options' ? `options/${r.name}`
  : `${r.kind}/${r.settle}/${r.name}`);

/** An option's parts: `BTC_USDT-20261129-60000-C` → underlying, expiry date, strike, call. */
export function optionParts(name: string): { underlying: string; date: string; strike: string; call: boolean } {
  const [underlying = '', date = '', strike = '', type = ''] = name.split('-');
  return { underlying, date, strike, call: type === 'C' };
}

/** The settle currency of an option (its underlying's quote: `BTC_USDT` → `usdt`). */
export const optionSettle = (name: string): string => (optionParts(name).underlying.split('_')[1] ?? '').toLowerCase();

let state: MarketsState = { loaded: false, error: '', spot: [], futures: [], delivery: [], options: [], tickers: new Map(), engineTimeMs: 0 };
const listeners = new Set<(s: MarketsState) => void>();
let started = false;

function update(change: Partial<MarketsState>): void {
  state = { ...state, ...change };
  for (const l of listeners) l(state);
  watchExpiries();
}

function putTickers(entries: readonly [string, Ticker][], timeMs: number): void {
  if (entries.length === 0) return;
  const tickers = new Map(state.tickers);
  for (const [k, t] of entries) tickers.set(k, t);
  update({ tickers, engineTimeMs: Math.max(state.engineTimeMs, timeMs) });
}

/** Notes the engine time of a push on another channel (trades, books) or of the clock form's answer. */
export function noteEngineTime(timeMs: number): void {
  if (timeMs > state.engineTimeMs) update({ engineTimeMs: timeMs });
}

const list = <T>(path: string): Promise<T[]> => rest<T[]>(path).catch((): T[] => []);

async function readDerivatives(): Promise<{ delivery: MarketRef[]; options: MarketRef[] }> {
  const delivery: MarketRef[] = [];
  for (const settle of SETTLES) {
    for (const c of await list<{ name: string; expire_time?: number }>(`/delivery/${settle}/contracts`)) {
      delivery.push({ kind: 'delivery', name: c.name, settle, expiresMs: (c.expire_time ?? 0) * 1000 });
    }
  }
  const options: MarketRef[] = [];
  for (const u of await list<{ name: string }>('/options/underlyings')) {
    for (const c of await list<{ name: string; expiration_time?: number }>(`/options/contracts?underlying=${encodeURIComponent(u.name)}`)) {
      options.push({ kind: 'options', name: c.name, settle: optionSettle(c.name), expiresMs: (c.expiration_time ?? 0) * 1000 });
    }
  }
  return { delivery, options };
}

/** A channel's payload names at most this many markets (the server's limit per subscription). */
const PER_SUBSCRIPTION = 100;

/** `names` in payloads of at most PER_SUBSCRIPTION. */
const chunks = (names: readonly string[]): string[][] =>
  Array.from({ length: Math.ceil(names.length / PER_SUBSCRIPTION) }, (_, i) => names.slice(i * PER_SUBSCRIPTION, (i + 1) * PER_SUBSCRIPTION));

/** Unsubscribers of the delivery and options ticker subscriptions (they follow the lists). */
let derivativeTickers: (() => void)[] = [];

/** Subscribes the tickers of `refs` (one subscription per socket) and returns the unsubscribers. */
function subscribeTickers(refs: readonly MarketRef[]): (() => void)[] {
  const offs: (() => void)[] = [];
  for (const kind of ['futures', 'delivery', 'options'] as const) {
    for (const settle of new Set(refs.filter((r) => r.kind === kind).map((r) => r.settle))) {
      const names = refs.filter((r) => r.kind === kind && r.settle === settle).map((r) => r.name);
      for (const part of chunks(names)) {
        if (kind === 'options') {
          offs.push(feed(optionsSocketUrl(settle)).subscribe('options.contract_tickers', part, (r, t) => {
            const tk = r as Ticker;
            if (typeof tk.name === 'string') putTickers([[`options/${tk.name}`, tk]], t);
          }));
          continue;
        }
        const url = kind === 'futures' ? futuresSocketUrl(settle) : deliverySocketUrl(settle);
        offs.push(feed(url).subscribe('futures.tickers', part, (r, t) => {
          const all = Array.isArray(r) ? (r as Ticker[]) : [r as Ticker];
          putTickers(all.filter((tk) => typeof tk.contract === 'string').map((tk) => [`${kind}/${settle}/${tk.contract}`, tk]), t);
        }));
      }
    }
  }
  return offs;
}

let refreshing = false;
let lastRefreshMs = 0;
/** Wait between two reads while an expired contract is still listed: 1 s, doubling while nothing changes, at most 30 s. */
let gapMs = 1000;

/** Reads the delivery and options lists again and follows their tickers. */
async function refreshDerivatives(): Promise<void> {
  refreshing = true;
  lastRefreshMs = Date.now();
  try {
    const { delivery, options } = await readDerivatives();
    const names = (l: readonly MarketRef[]): string => l.map(refKey).join();
    if (names(delivery) === names(state.delivery) && names(options) === names(state.options)) {
      gapMs = Math.min(gapMs * 2, 30_000);
      return;
    }
    gapMs = 1000;
    for (const off of derivativeTickers) off();
    const kept = new Set([...delivery, ...options].map(refKey));
    const tickers = new Map([...state.tickers].filter(([k]) => !(k.startsWith('delivery/') || k.startsWith('options/')) || kept.has(k)));
    update({ delivery, options, tickers });
    derivativeTickers = subscribeTickers([...delivery, ...options]);
  } finally {
    refreshing = false;
  }
}

let retry: ReturnType<typeof setTimeout> | undefined;

/** Reads the lists again when the engine's time passed a listed contract's expiry (see the module header). */
function watchExpiries(): void {
  if (!state.loaded || refreshing || retry !== undefined) return;
  const due = [...state.delivery, ...state.options].some((r) => r.expiresMs > 0 && r.expiresMs <= state.engineTimeMs);
  if (!due) return;
  const wait = Math.max(0, lastRefreshMs + gapMs - Date.now());
  retry = setTimeout(() => {
    retry = undefined;
    void refreshDerivatives().then(watchExpiries, () => undefined);
  }, wait);
}

async function start(): Promise<void> {
  try {
    const pairs = await rest<{ id: string }[]>('/spot/currency_pairs');
    const spot = pairs.map((p): MarketRef => ({ kind: 'spot', name: p.id, settle: '', expiresMs: 0 }));
    const futures: MarketRef[] = [];
    for (const settle of SETTLES) {
      for (const c of await list<{ name: string }>(`/futures/${settle}/contracts`)) futures.push({ kind: 'futures', name: c.name, settle, expiresMs: 0 });
    }
    const { delivery, options } = await readDerivatives();
    lastRefreshMs = Date.now();
    update({ loaded: true, spot, futures, delivery, options });
    for (const part of chunks(spot.map((m) => m.name))) {
      feed(spotSocketUrl).subscribe('spot.tickers', part, (r, t) => {
        const tk = r as Ticker;
        if (typeof tk.currency_pair === 'string') putTickers([[`spot/${tk.currency_pair}`, tk]], t);
      });
    }
    subscribeTickers(futures);
    derivativeTickers = subscribeTickers([...delivery, ...options]);
  } catch (e) {
    update({ loaded: true, error: String(e) });
  }
}

/** The markets and their live tickers (starts loading on first use). */
export function useMarkets(): MarketsState {
  const [s, set] = useState(state);
  useEffect(() => {
    listeners.add(set);
    set(state);
    if (!started) {
      started = true;
      void start();
    }
    return () => { listeners.delete(set); };
  }, []);
  return s;
}
