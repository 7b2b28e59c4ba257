/**
 * The market-data replay configuration (`--config FILE.json`; every field optional):
 *
 *   {
 *     "market": { "id": "BTC_USDT", "price_precision": 1, "amount_precision": 3, "fee": "0.2", "maker_fee_rate": "0.1",
 *                 "min_base_amount": "0.001", "min_quote_amount": "1" },
 *     "currencies": [{ "code": "BTC", "scale": 8 }],
 *     "users": [{ "uid": 10001, "balances": { "USDT": "100000", "BTC": "1" } }],
 *     "stp_groups": [{ "id": 1, "users": [10001, 10002] }],
 *     "seed": 1,
 *     "latency": { "entry": {…}, "cancel": {…}, "ack": {…}, "feed": {…} },      see ./models/latency.ts
 *     "queue": { "model": "conservative" | "probabilistic", "power": 3 },
 *     "liquidity_consumption": true,
 *     "strategy": { "module": "path/to/strategy.ts", "options": { … } },
 *     "sample_us": 1000000,
 *     "snapshots": "flip" | "each",
 *     "gate": { "amounts": "absolute" | "delta" },
 *     "contract": { "funding_interval": 28800, "taker_fee_rate": "0.0005", "insurance": "1000000", … }
 *   }
 *
 * A `contract` section (or `--ticker`) makes the replay one of a perpetual (docs/replay.md "Perpetual
 * replays"): Gate's Contract fields override the defaults of ./perp/perp-definition.ts, `insurance` is the
 * insurance fund's opening balance; users' `balances` in the settle currency fund their futures accounts, and
 * `leverage` ("0": cross) sets their positions' leverage.
 *
 * Precisions absent from the file are detected from the data's first rows. Markets built from data have no
 * minimum amounts unless configured (the public book's levels may be smaller than Gate's minimums).
 */
import { readFileSync } from 'node:fs';
import type { ContractConfig } from '../core/futures/contract.js';
import { ConfigError } from '../core/invariant.js';
import { checkLatency, type LatencySpec, LEGS } from './models/latency.js';
import { conservativeQueue, probabilisticQueue, type QueueModel } from './models/queue.js';

export interface ReplayConfig {
  readonly market?: {
    readonly id?: string; readonly price_precision?: number; readonly amount_precision?: number;
    readonly fee?: string; readonly maker_fee_rate?: string; readonly min_base_amount?: string; readonly min_quote_amount?: string;
  };
  /** Currency scales (decimals) and supplies, as in the simulator config; defaults keep every fee exact (./replay-currencies.ts). */
  readonly currencies?: readonly { readonly code: string; readonly scale: number; readonly max_supply?: string }[];
  readonly users?: readonly { readonly uid: number; readonly balances?: Readonly<Record<string, string>>; readonly leverage?: string }[];
  readonly stp_groups?: readonly { readonly id: number; readonly users: readonly number[] }[];
  readonly seed?: number;
  readonly latency?: Partial<Record<(typeof LEGS)[number], LatencySpec>>;
  readonly queue?: { readonly model?: 'conservative' | 'probabilistic'; readonly power?: number };
  readonly liquidity_consumption?: boolean;
  readonly strategy?: { readonly module?: string; readonly options?: Readonly<Record<string, unknown>> };
  readonly sample_us?: number;
  /**
   * When a snapshot resets the book: "flip" (default; snapshot rows after updates, the Tardis rule) or "each"
   * (every snapshot message, for datasets made only of snapshots).
   */
  readonly snapshots?: 'flip' | 'each';
  /** Gate dumps: read make/take amounts as absolute level sizes (default) or as signed changes (spot only). */
  readonly gate?: { readonly amounts?: 'absolute' | 'delta' };
  /** A perpetual replay: the contract's fields (name and price rounds come from the market) and the insurance fund. */
  readonly contract?: Partial<Omit<ContractConfig, 'name' | 'order_price_round' | 'mark_price_round'>> & { readonly insurance?: string };
}

export const DEFAULT_LATENCY: Readonly<Record<(typeof LEGS)[number], LatencySpec>> = {
  entry: { type: 'constant', us: 500 },
  cancel: { type: 'constant', us: 500 },
  ack: { type: 'constant', us: 500 },
  feed: { type: 'constant', us: 0 },
};

export const DEFAULT_USER = 10001;

export function readReplayConfig(path: string): ReplayConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new ConfigError(`${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError(`${path}: not a JSON object`);
  return raw;
}

/** Latency spec per leg (defaults filled in, each checked). */
export function latencyOf(cfg: ReplayConfig): Record<(typeof LEGS)[number], LatencySpec> {
  const out = { ...DEFAULT_LATENCY };
  for (const leg of LEGS) {
    const s = cfg.latency?.[leg];
    // A leg given without a type is constant (so a sweep over `latency.entry.us` needs nothing else).
    if (s !== undefined) out[leg] = checkLatency(s.type === undefined ? { ...(s as object), type: 'constant' } as LatencySpec : s, leg);
  }
  return out;
}

export function queueOf(cfg: ReplayConfig): QueueModel {
  const q = cfg.queue ?? {};
  if (q.model === undefined || q.model === 'conservative') return conservativeQueue;
  if (q.model !== 'probabilistic') throw new ConfigError('queue.model must be conservative or probabilistic');
  const n = q.power ?? 3;
  if (typeof n !== 'number' || !(n > 0) || n > 20) throw new ConfigError('queue.power must be a number in (0, 20]');
  return probabilisticQueue(n);
}

/** Sets `path` (dotted, e.g. "latency.entry.us") in a copy of `cfg`, for sweeps. @allocates */
export function withField(cfg: ReplayConfig, path: string, value: unknown): ReplayConfig {
  const copy = JSON.parse(JSON.stringify(cfg)) as Record<string, unknown>;
  const keys = path.split('.');
  let o: Record<string, unknown> = copy;
  for (const k of keys.slice(0, -1)) {
    const next = o[k];
    if (typeof next !== 'object' || next === null) o[k] = {};
    o = o[k] as Record<string, unknown>;
  }
  o[keys[keys.length - 1]!] = value;
  return copy;
}
