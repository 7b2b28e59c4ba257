/**
 * What route modules share: the engine gateway, the key store, the clocks and the simulator's extras.
 * Built once by `createServer`; routes hold no other state except what they own (countdown timers).
 */
import type { SimClock } from '../core/clock.js';
import { Command } from '../core/command.js';
import type { StpGroupDefinition } from '../core/exchange/exchange-definition.js';
import type { ExchangeGateway } from '../engine/gateway.js';
import type { KeyStore } from './auth/key-store.js';
import type { WalletSim } from '../sim/chains/wallet-sim.js';
import type { FillRatio } from './fill-ratio.js';
import type { PriceTriggers } from './price-orders/price-triggers.js';
import type { KeyAdmin } from './sub-accounts/key-admin.js';

export interface ApiDeps {
  readonly gateway: ExchangeGateway;
  readonly keys: KeyStore;
  /** API-key management over `keys` (declared keys, delayed application, key records). */
  readonly keyAdmin: KeyAdmin;
  /** The simulated clock when one drives the engine (POST /sim/clock); undefined under the wall clock. */
  readonly simClock: SimClock | undefined;
  readonly stpGroups: readonly StpGroupDefinition[];
  /** Control-plane token; '' for none (then loopback callers only). */
  readonly adminToken: string;
  /** Whether a caller's address is X-Forwarded-For's first entry (a trusted reverse proxy in front) rather than the socket's. */
  readonly trustProxy: boolean;
  /** The chain simulation: deposits, withdrawals, pushes, addresses (wallet and withdrawal routes). */
  readonly wallet: WalletSim;
  /** Price-triggered spot orders (REST routes, spot.priceorders pushes). */
  readonly priceTriggers: PriceTriggers;
  /**
   * How long (µs of the engine's clock) a finished order with no fills stays readable: routes answer
   * ORDER_NOT_FOUND and finished lists skip it afterwards (routes/order-view.ts isRetired). Gate: about 60 s.
   */
  readonly orderRetentionUs: number;
  /** Futures fill-ratio tiers (seed 8.2): per-user counters and the placement limit of VIP 14+ users. */
  readonly fillRatio: FillRatio;
  /** A command object the routes fill and submit (the gateway copies it, so one suffices). */
  readonly cmd: Command;
  /** Disposers run by `close()` (timers of routes). */
  readonly onClose: (() => void)[];
  /**
   * Told when POST /sim/clock moved the simulated clock (what waits on the engine's time: trigger expiry,
   * countdown cancels); each resolves once what the move made due is applied, and the route replies after.
   */
  readonly onClockMove: (() => Promise<void>)[];
}

export function makeDeps(init: Omit<ApiDeps, 'cmd' | 'onClose' | 'onClockMove'>): ApiDeps {
  return { ...init, cmd: new Command(), onClose: [], onClockMove: [] };
}
