/**
 * Path and query checks the public futures, delivery and options routes share, answering result codes:
 * the settle segment (a configured settle currency, or usdt/btc, which Gate always lists), the `contract`
 * of a query or path, and the registration of a route under `/futures/{settle}…` and Gate's settle-less
 * legacy path `/futures…` (settle btc, seed part 9).
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import { DELIVERY_SCOPE, settleOfScope } from '../../core/futures/contract.js';
import { DeliveryStatus } from '../../core/futures/futures-state.js';
import { ResultCode } from '../../core/result-code.js';
import type { ApiRequest } from '../http/api-request.js';
import type { Reply } from '../http/reply.js';
import type { Router } from '../router.js';
import { DEFAULT_SETTLES, isKnownSettle } from '../../gate/futures-request.js';

export const PUBLIC = { kind: 'public' } as const;

/** Settle currencies Gate always serves (ccxt's default loadMarkets asks for both). */
export { DEFAULT_SETTLES };

/**
 * True when route scope `settle` (core/futures/contract.ts Contract.settle: `usdt`, or `delivery:usdt` under
 * /delivery) names a settle currency here: usdt, btc, or one a contract of the scope settles in.
 */
export const isFuturesSettle = (ex: Exchange, settle: string): boolean => isKnownSettle(ex, settle);

/**
 * The route scope of a request under `/api/v4/{futures|delivery}/{settle}…`: the settle segment in lower case,
 * prefixed with DELIVERY_SCOPE under /delivery (the delivery routes are the futures handlers registered again
 * there: delivery-routes.ts).
 */
export function scopeOf(req: ApiRequest): string {
  const settle = req.params[0]!.toLowerCase();
  return req.path.startsWith('/api/v4/delivery/') ? DELIVERY_SCOPE + settle : settle;
}

/** The contract index of `name` in `settle`: MissingParam when absent, ContractNotFound when unknown there. */
export function contractIn(ex: Exchange, settle: string, name: string | undefined): number {
  if (name === undefined || name === '') return ResultCode.MissingParam;
  const ci = ex.futures.contractIndex(settle, name);
  return ci < 0 ? ResultCode.ContractNotFound : ci;
}

/**
 * True while contract `ci` is listed: a perpetual, or a delivery contract not yet settled. Gate drops a delivered
 * contract from its contract and ticker lists; its history (orders, trades, settlements) and its own
 * `contracts/{contract}` (status `delisted`, with the settlement price) stay readable by name.
 */
export const isListed = (ex: Exchange, ci: number): boolean => ex.futures.deliveryStatus[ci] !== DeliveryStatus.Settled;

/** The decoded query as a record. @allocates */
export const queryOf = (req: ApiRequest): Readonly<Record<string, string>> => Object.fromEntries(req.query);

/** A handler of a settled path: the settle segment (already checked) and the path's other parameters. */
export type SettleHandler = (settle: string, rest: readonly string[], req: ApiRequest, reply: Reply) => void;

/**
 * Registers GET `/api/v4/{group}/{settle}{suffix}` (settle in lower case, `USDT` accepted too, checked with `valid`:
 * InvalidParam otherwise) and, for futures, the settle-less `/api/v4/futures{suffix}` answering for btc.
 */
export function addSettleRoute(router: Router, group: 'futures' | 'delivery', suffix: string, valid: (settle: string) => boolean,
  handler: SettleHandler): void {
  router.add({ method: 'GET', pattern: `/api/v4/${group}/{settle}${suffix}`, access: PUBLIC, limit: 'public',
    handler: (req, reply) => {
      const settle = scopeOf(req);
      if (!valid(settle)) return reply.error(ResultCode.InvalidParam, `settle ${settleOfScope(settle)} is not served`);
      handler(settle, req.params.slice(1), req, reply);
    } });
  if (group === 'futures') {
    router.add({ method: 'GET', pattern: `/api/v4/futures${suffix}`, access: PUBLIC, limit: 'public',
      handler: (req, reply) => handler('btc', req.params, req, reply) });
  }
}
