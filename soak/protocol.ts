/**
 * What soak:server's processes say to each other over their IPC channels: the parent (server.ts), the
 * simulator (server-child.ts) and the load generator (load-child.ts).
 */

export interface SoakKey {
  readonly key: string;
  readonly secret: string;
}

/** The soak's four trading users (server-child.ts funds them; the generator signs with their keys). */
export const SOAK_USERS: readonly (SoakKey & { readonly uid: number })[] = [1, 2, 3, 4]
  .map((i) => ({ uid: 30000 + i, key: `soak-key-${i}`, secret: `soak-secret-${i}` }));

/** A server sample, taken after a forced full GC. */
export interface MemorySample {
  /** ms since the soak started (parent's clock, set by the parent). */
  t_ms: number;
  rss: number;
  heap_used: number;
  heap_total: number;
  external: number;
  array_buffers: number;
  /** Orders the exchange has accepted so far (every PlaceOrder that passed R1, the market maker's included). */
  orders_placed: number;
  /** Of those, still open. */
  orders_open: number;
  trades: number;
  /** The finished-order window (100k by default) is full: from here on, memory should not grow with orders. */
  window_full: boolean;
  /** Sizes of the server's structures that grow with orders or trades (server-child.ts `structureSizes`). */
  sizes: Record<string, number>;
}

export interface ConservationRow {
  currency: string;
  /** Σ (available + locked) over every account, the fee account and the lending pool included. */
  accounts: string;
  fee_account: string;
  lending_pool: string;
  credits: string;
  debits: string;
  /** accounts = credits − debits. */
  exact: boolean;
}

export interface ServerCheck {
  /** The gateway's stop, if the engine stopped. */
  stopped: string | null;
  /** `exchange.assertInvariants()` (ledger conservation, holds = locked, open orders = holds): null when it held. */
  invariant_error: string | null;
  conservation: ConservationRow[];
}

export type ToServer =
  | { readonly type: 'sample' }
  | { readonly type: 'check' }
  | { readonly type: 'heap_snapshot'; readonly path: string };

export type FromServer =
  | { readonly type: 'listening'; readonly port: number }
  | { readonly type: 'sample'; readonly sample: Omit<MemorySample, 't_ms'> }
  | { readonly type: 'check'; readonly check: ServerCheck }
  | { readonly type: 'heap_snapshot'; readonly path: string };

/** Counts of the generator since its phase began. */
export interface LoadCounts {
  sent: number;
  answered: number;
  /** Answers with a 2xx status. */
  ok: number;
  /** Non-2xx answers by `label` (or by status when the body has none). */
  errors: Record<string, number>;
  /** The first answer of each error label: the request's kind and the answer's message. */
  first_errors: Record<string, string>;
  /** Requests sent by kind (place_gtc, place_ioc, …, amend, cancel). */
  by_kind: Record<string, number>;
  /** Requests due by the schedule but not yet sent (open loop: every connection busy). */
  backlog: number;
}

export interface PhaseSpec {
  readonly port: number;
  readonly connections: number;
  readonly mode: 'closed' | 'open';
  /** open only: requests per second. */
  readonly rate?: number;
  readonly seconds: number;
  readonly seed: number;
}

export interface PhaseResult extends LoadCounts {
  readonly seconds: number;
  /** Latency of answered requests, µs (open loop: from each request's scheduled time). */
  readonly p50_us: number;
  readonly p99_us: number;
  readonly max_us: number;
}

export type ToGenerator =
  | { readonly type: 'phase'; readonly spec: PhaseSpec }
  | { readonly type: 'counts' }
  | { readonly type: 'exit' };

export type FromGenerator =
  | { readonly type: 'ready' }
  | { readonly type: 'counts'; readonly counts: LoadCounts }
  | { readonly type: 'result'; readonly result: PhaseResult }
  | { readonly type: 'failed'; readonly message: string };
