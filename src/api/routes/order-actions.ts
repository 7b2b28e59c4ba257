/**
 * The order operations behind the single and batch routes: parse at the edge into the shared command,
 * submit through the gateway, render the Gate Order from the read model when the engine answers.
 * Each calls `done` exactly once: (Ok, order) or (rejection, undefined). Callers may run several in a row;
 * with the inline gateway `done` runs before the call returns, with a threaded one later.
 */
import { Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { EventKind } from '../../core/matching/book-events.js';
import { Side } from '../../core/matching/order-types.js';
import { ResultCode } from '../../core/result-code.js';
import { type GateOrder, renderOrder } from '../../gate/shapes.js';
import type { ApiDeps } from '../deps.js';
import { parseAmendOrder, parseCreateOrder } from '../../gate/spot-order-request.js';
import { placeMarginOrder } from '../unified/margin-orders.js';
import { placeWithAutoBorrow } from '../unified/unified-orders.js';
import { accountKindOf } from '../../core/exchange/order-store.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';

export type OrderDone = (code: ResultCode, order: GateOrder | undefined) => void;
type Body = Readonly<Record<string, unknown>>;

export function placeOrder(deps: ApiDeps, uid: number, body: Body, done: OrderDone): void {
  const { gateway, cmd } = deps;
  const parsed = parseCreateOrder(gateway.exchange, uid, body, cmd);
  if (parsed !== ResultCode.Ok) return done(parsed, undefined);
  const place = cmd.kind === AccountKind.Margin || cmd.kind === AccountKind.CrossMargin ? placeMarginOrder : placeWithAutoBorrow;
  place(deps, uid, cmd, (code, c) => {
    done(code, c !== undefined ? renderOrder(gateway.exchange, gateway.exchange.orders.find(c.orderId)) : undefined);
  });
}

/** Amends record `r` (an order of `uid`); `body` holds currency_pair, amount and/or price. */
export function amendOrder(deps: ApiDeps, uid: number, r: number, body: Body, done: OrderDone): void {
  const { gateway, cmd } = deps;
  const id = gateway.exchange.orders.id[r]!;
  const parsed = parseAmendOrder(gateway.exchange, uid, id, body, cmd);
  if (parsed !== ResultCode.Ok) return done(parsed, undefined);
  gateway.submit(cmd, (code) => {
    done(code, code === ResultCode.Ok ? renderOrder(gateway.exchange, gateway.exchange.orders.find(id)) : undefined);
  });
}

/** Cancels record `r` (an order of `uid`). */
export function cancelOrder(deps: ApiDeps, uid: number, r: number, done: OrderDone): void {
  const { gateway, cmd } = deps;
  const O = gateway.exchange.orders;
  const id = O.id[r]!;
  cmd.clear();
  cmd.type = CommandType.CancelOrder;
  cmd.uid = uid; cmd.market = O.market[r]!; cmd.orderId = id;
  gateway.submit(cmd, (code) => {
    done(code, code === ResultCode.Ok ? renderOrder(gateway.exchange, gateway.exchange.orders.find(id)) : undefined);
  });
}

/**
 * The commands that cancel every open order of `uid` of account kind `kind` in `markets` (one side when
 * `side` is Side.Buy/Sell, 0 both): a CancelAll per market, or one CancelOrder per matching order in a market
 * where the user also has open orders of another account. Fresh objects (a journal group may hold them). @allocates
 */
export function cancelAllCommands(ex: Exchange, uid: number, markets: readonly number[], side: number, kind: number = AccountKind.Spot): Command[] {
  const O = ex.orders;
  const sides = side === Side.Buy || side === Side.Sell ? side : 0;
  const out: Command[] = [];
  const add = (m: number, id: number): void => {
    const c = new Command();
    c.type = id === 0 ? CommandType.CancelAll : CommandType.CancelOrder;
    c.uid = uid; c.market = m; c.side = id === 0 ? sides : 0; c.orderId = id;
    out.push(c);
  };
  for (const m of markets) {
    const open = O.openOf(uid, m).filter((r) => sides === 0 || O.side[r] === sides);
    const mine = open.filter((r) => accountKindOf(O.account[r]!) === kind);
    if (mine.length === open.length) add(m, 0);
    else for (const r of mine) add(m, O.id[r]!);
  }
  return out;
}

/**
 * Cancels what `cancelAllCommands` names; `done` gets the cancelled orders in the engine's order, or the first
 * rejection of a CancelAll.
 */
export function cancelAll(deps: ApiDeps, uid: number, markets: readonly number[], side: number,
  done: (code: ResultCode, orders: GateOrder[]) => void, kind: number = AccountKind.Spot): void {
  const { gateway } = deps;
  const out: GateOrder[] = [];
  const cmds = cancelAllCommands(gateway.exchange, uid, markets, side, kind);
  let pending = cmds.length;
  let failed: ResultCode = ResultCode.Ok;
  if (pending === 0) return done(ResultCode.Ok, out);
  // One journal group: after a crash, the request's cancels are all there or none is.
  gateway.submitGroup(cmds.map((cmd) => [cmd, (code, _c, ev) => {
    // A single cancel that finds its order finished (a fill in flight) is not a failure of the whole.
    if (code !== ResultCode.Ok && cmd.type === CommandType.CancelAll && failed === ResultCode.Ok) failed = code;
    const ex = gateway.exchange;
    for (let i = 0; i < ev.count; i++) {
      if (ev.kind[i] === EventKind.Finished) out.push(renderOrder(ex, ex.orders.find(ev.orderId[i]!)));
    }
    if (--pending === 0) done(failed, out);
  }] as const));
}
