/**
 * What the control plane shows of one user (GET /sim/users/{uid} and the `sim.user` channel of `/ws/sim`): each
 * account the user's own signed reads would answer, in the same shapes, in one object:
 *
 *   {uid, main_uid,
 *    spot:     {balances: [{currency, available, locked}], open_orders: [Order]}          GET /spot/accounts, /spot/open_orders
 *    futures:  [{settle, account, positions, open_orders}]   per perpetual settle the user has an account of (funded once):
 *                                                            GET /futures/{settle}/accounts, …/positions?holding=true, …/orders?status=open
 *    delivery: [{settle, account, positions, open_orders}]   the same per delivery settle: GET /delivery/{settle}/…
 *    options:  [{settle, account, positions, open_orders}]   per options settle currency (the underlyings' quote) the user
 *                                                            has an options account of: GET /options/accounts, /options/positions,
 *                                                            /options/orders?status=open}
 *
 * Figures that move with time (options marks, IV, greeks, unrealised pnl) are rendered at `nowUs`.
 * Costs: one pass over the user's records, open orders and position rows, plus one over every options position row when
 * the user has an options account (the account's figures); allocates the answer.
 */
import { DELIVERY_SCOPE, settleOfScope } from '../../core/futures/contract.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { DELIVERY_ACCT } from '../../core/ledger/futures-funds.js';
import { renderFuturesAccount, renderPosition } from '../../gate/futures-position-shapes.js';
import { renderFuturesOrder } from '../../gate/futures-shapes.js';
import { settleCurrency } from '../../gate/futures-request.js';
import { renderOptionOrder, renderOptionPosition, renderOptionsAccount } from '../../gate/options-shapes.js';
import { renderOrder } from '../../gate/shapes.js';
import type { ApiDeps } from '../deps.js';
import { futuresOrdersOf } from './futures-common.js';

type Row = Record<string, unknown>;

/** One derivatives account of the view: its settle currency (lower case, as Gate's paths), account, positions, orders. */
export interface DerivativesView {
  readonly settle: string;
  readonly account: Row;
  readonly positions: Row[];
  readonly open_orders: Row[];
}

export interface UserView {
  readonly uid: number;
  readonly main_uid: number;
  readonly spot: { readonly balances: { currency: string; available: string; locked: string }[]; readonly open_orders: unknown[] };
  readonly futures: DerivativesView[];
  readonly delivery: DerivativesView[];
  readonly options: DerivativesView[];
}

/** The perpetual (`usdt`) or delivery (`delivery:usdt`) accounts of `uid`, one per route scope of `scopes` it has. */
function futuresAccounts(deps: ApiDeps, uid: number, scopes: readonly string[]): DerivativesView[] {
  const e = deps.gateway.exchange;
  const S = e.futures;
  const P = S.positions;
  return scopes.flatMap((scope) => {
    const cur = settleCurrency(e, scope);
    if (cur < 0) return [];
    const acct = scope.startsWith(DELIVERY_SCOPE) ? cur + DELIVERY_ACCT : cur;
    if (!e.ledger.futures.hasAccount(uid, acct)) return [];
    const positions = P.rowsOf(uid).filter((r) => P.size[r] !== 0 && S.acct[S.contractOf(P.market[r]!)] === acct)
      .map((r) => renderPosition(e, r, 'int'));
    const orders = futuresOrdersOf(deps, uid, scope, -1, true).map((r) => renderFuturesOrder(e, r, 'int'));
    return [{ settle: settleOfScope(scope), account: renderFuturesAccount(e, uid, acct), positions, open_orders: orders }];
  });
}

/** The options accounts of `uid`: one per underlying quote currency it has an options account in. */
function optionsAccounts(e: Exchange, uid: number, nowUs: number): DerivativesView[] {
  const S = e.options;
  const codes = [...new Set(S.underlyings.map((u) => u.quote))];
  return codes.flatMap((code) => {
    const cur = e.currencyIndex(code);
    if (cur < 0 || !e.ledger.options.hasAccount(uid, cur)) return [];
    const positions: Row[] = [];
    S.rows.forEach((p, row) => {
      if (p.uid === uid && p.size !== 0 && S.settleCur[S.contracts[p.ci]!.u] === cur) positions.push(renderOptionPosition(e, row, nowUs));
    });
    const O = e.orders;
    const orders = O.openOf(uid).filter((r) => {
      const ci = S.contractOf(O.market[r]!);
      return ci >= 0 && S.settleCur[S.contracts[ci]!.u] === cur;
    }).reverse().map((r) => renderOptionOrder(e, r));
    return [{ settle: code.toLowerCase(), account: renderOptionsAccount(e, uid, code), positions, open_orders: orders }];
  });
}

/** The view of `uid` at engine time `nowUs`, or undefined for an unknown user. */
export function renderUserView(deps: ApiDeps, uid: number, nowUs: number): UserView | undefined {
  const e = deps.gateway.exchange;
  const main = e.ledger.mainOf(uid);
  if (main < 0) return undefined;
  const O = e.orders;
  const openSpot: unknown[] = [];
  for (let m = 0; m < e.spotMarkets; m++) for (const r of O.openOf(uid, m)) openSpot.push(renderOrder(e, r));
  const scopes = [...new Set(e.futures.contracts.map((k) => k.settle))];
  return {
    uid, main_uid: main,
    spot: {
      balances: e.ledger.balances(uid, AccountKind.Spot, 0).map((b) => ({ currency: b.currency, available: b.available, locked: b.locked })),
      open_orders: openSpot,
    },
    futures: futuresAccounts(deps, uid, scopes.filter((s) => !s.startsWith(DELIVERY_SCOPE))),
    delivery: futuresAccounts(deps, uid, scopes.filter((s) => s.startsWith(DELIVERY_SCOPE))),
    options: optionsAccounts(e, uid, nowUs),
  };
}
