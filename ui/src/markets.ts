/**
 * The markets the server lists (spot pairs, perpetual contracts of Gate's settle currencies usdt and btc) and
 * their tickers, kept current by the public ticker channels (`spot.tickers`, `futures.tickers`), which push the
 * current ticker on subscribe and again after each trade or change of the best levels. `activity` counts pushes:
 * views that read other state (a user's balances) re-read it when it moves.
 */
import { useEffect, useState } from 'preact/hooks';
import { futuresSocketUrl, rest, spotSocketUrl } from './api';
import { feed } from './socket';

/** Gate's settle currencies of perpetual contracts; a settle the server does not serve lists nothing. */
export const SETTLES = ['usdt', 'btc'] as const;

/** A market as the views address it. */
export interface MarketRef {
  readonly kind: 'spot' | 'futures';
  /** Pair or contract name (`BTC_USDT`). */
  readonly name: string;
  /** The settle currency of a contract (`usdt`); '' for spot. */
  readonly settle: string;
}

export type Ticker = Readonly<Record<string, string>>;

export interface MarketsState {
  readonly loaded: boolean;
  readonly error: string;
  readonly spot: readonly MarketRef[];
  readonly futures: readonly MarketRef[];
  /** By `refKey`. */
  readonly tickers: ReadonlyMap<string, Ticker>;
  /** Pushes seen so far. */
  readonly activity: number;
  /** The engine's time of the latest push (ms; 0 before any). */
  readonly engineTimeMs: number;
}

export const refKey = (r: MarketRef): string => (r.kind === 'spot' ? `spot/${r.name}` : `futures/${r.settle}/${r.name}`);

let state: MarketsState = { loaded: false, error: '', spot: [], futures: [], tickers: new Map(), activity: 0, engineTimeMs: 0 };
const listeners = new Set<(s: MarketsState) => void>();
let started = false;

function update(change: Partial<MarketsState>): void {
  state = { ...state, ...change };
  for (const l of listeners) l(state);
}

function putTickers(entries: readonly [string, Ticker][], timeMs: number): void {
  const tickers = new Map(state.tickers);
  for (const [k, t] of entries) tickers.set(k, t);
  update({ tickers, activity: state.activity + 1, engineTimeMs: Math.max(state.engineTimeMs, timeMs) });
}

/** Notes the engine time of a push on another channel (trades, books). */
export function noteEngineTime(timeMs: number): void {
  if (timeMs > state.engineTimeMs) update({ engineTimeMs: timeMs });
}

async function start(): Promise<void> {
  try {
    const pairs = await rest<{ id: string; trade_status?: string }[]>('/spot/currency_pairs');
    const spot = pairs.map((p): MarketRef => ({ kind: 'spot', name: p.id, settle: '' }));
    const futures: MarketRef[] = [];
    for (const settle of SETTLES) {
      const contracts = await rest<{ name: string }[]>(`/futures/${settle}/contracts`).catch(() => []);
      for (const c of contracts) futures.push({ kind: 'futures', name: c.name, settle });
    }
    update({ loaded: true, spot, futures });
    if (spot.length > 0) {
      feed(spotSocketUrl).subscribe('spot.tickers', spot.map((m) => m.name), (r, t) => {
        const tk = r as Ticker;
        if (typeof tk.currency_pair === 'string') putTickers([[`spot/${tk.currency_pair}`, tk]], t);
      });
    }
    for (const settle of SETTLES) {
      const names = futures.filter((f) => f.settle === settle).map((f) => f.name);
      if (names.length === 0) continue;
      feed(futuresSocketUrl(settle)).subscribe('futures.tickers', names, (r, t) => {
        const list = Array.isArray(r) ? (r as Ticker[]) : [r as Ticker];
        putTickers(list.filter((tk) => typeof tk.contract === 'string').map((tk) => [`futures/${settle}/${tk.contract}`, tk]), t);
      });
    }
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
