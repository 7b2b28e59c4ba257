/**
 * The private perpetual-futures routes (orders, batches and countdown, positions, accounts and histories),
 * registered together; docs/futures.md "Orders, positions and accounts" lists them.
 */
import type { ApiDeps } from '../deps.js';
import type { Router } from '../router.js';
import { registerFuturesAccountRoutes } from './futures-accounts.js';
import { registerFuturesBatchRoutes } from './futures-batch.js';
import { registerFuturesOrderRoutes } from './futures-orders.js';
import { registerFuturesPositionRoutes } from './futures-positions.js';

export function registerFuturesRoutes(router: Router, deps: ApiDeps): void {
  registerFuturesOrderRoutes(router, deps);
  registerFuturesBatchRoutes(router, deps);
  registerFuturesPositionRoutes(router, deps);
  registerFuturesAccountRoutes(router, deps);
}
