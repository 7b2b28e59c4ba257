/**
 * Private options routes (permission group `options`; rate class `private` unless noted):
 *   GET    /options/accounts                       OptionsAccount of the USDT options account
 *   GET    /options/account_book?type=&from=&to=&limit=&offset=    dnw | prem | fee | set, newest first
 *   GET    /options/positions?underlying=          open positions (size ≠ 0)
 *   GET    /options/positions/{contract}           one position (size 0 when never traded)
 *   GET    /options/position_close?underlying=&contract=   positions closed (by a trade, the liquidator or
 *                                                  settlement: text close | liquidated | settled), newest first
 *   GET    /options/my_settlements?underlying=&contract=&limit=&offset=&from=&to=
 *   POST   /options/orders                         create (201)                                 rate: options-place
 *   GET    /options/orders?status=open|finished&underlying=&contract=&limit=&offset=&from=&to=
 *   GET    /options/orders/{order_id}
 *   PUT    /options/orders/{order_id}              amend: contract, price, size (new total)     rate: options-place
 *   DELETE /options/orders/{order_id}              cancel                                       rate: options-cancel
 *   DELETE /options/orders?underlying=&contract=&side=ask|bid   cancel all (one journal group)   rate: options-cancel
 *   GET    /options/my_trades?underlying=&contract=&limit=&offset=&from=&to=
 * Every write is one engine command (journaled before the reply). A user whose options account was never funded
 * (wallet transfer to `options`) gets USER_NOT_FOUND on the account and order routes, as the futures routes do.
 */
import { Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { EventKind } from '../../core/matching/book-events.js';
import { Side } from '../../core/matching/order-types.js';
import { ResultCode } from '../../core/result-code.js';
import { parseOptionContract, parseOptionsAmend, parseOptionsOrder, parseUnderlying } from '../../gate/options-request.js';
import {
  moneyText, optionsBookType, priceText, renderEmptyOptionPosition, renderOptionOrder, renderOptionPosition, renderOptionsAccount, renderOptionsBookEntry,
  renderOptionsPositionClose, renderOptionTrade,
} from '../../gate/options-shapes.js';
import { parseOrderId } from '../../gate/spot-order-request.js';
import type { ApiDeps } from '../deps.js';
import { type ApiRequest, bodyObject, queryParam } from '../http/api-request.js';
import type { Reply } from '../http/reply.js';
import type { Router } from '../router.js';
import { intParam, paginationHeaders, timeParamUs } from './common.js';
import { isRetired } from './order-view.js';

const OPTIONS = { kind: 'private', group: 'options' } as const;
const P = '/api/v4/options';
/** The settle currency of every options underlying here (USDT-quoted underlyings). */
const SETTLE = 'USDT';

export function registerOptionsPrivateRoutes(router: Router, deps: ApiDeps): void {
  const { gateway } = deps;
  const ex = (): Exchange => gateway.exchange;
  const now = (): number => gateway.clock.nowUs();
  const cur = (): number => ex().currencyIndex(SETTLE);
  const funded = (uid: number): boolean => cur() >= 0 && ex().ledger.options.hasAccount(uid, cur());

  /** Filters of the query: underlying and contract (either optional), or a code. */
  const scope = (req: ApiRequest): { ui: number; ci: number } | number => {
    const u = queryParam(req, 'underlying');
    const c = queryParam(req, 'contract');
    const ui = u === undefined || u === '' ? -1 : parseUnderlying(ex(), u);
    if (ui < -1) return ui;
    const ci = c === undefined || c === '' ? -1 : parseOptionContract(ex(), c);
    if (ci < -1) return ci;
    return { ui, ci };
  };
  const inScope = (s: { ui: number; ci: number }, ci: number): boolean =>
    ci >= 0 && (s.ci < 0 || s.ci === ci) && (s.ui < 0 || ex().options.contracts[ci]!.u === s.ui);
  /** limit, offset, from, to (µs) of the query, or a code. */
  const page = (req: ApiRequest): { limit: number; offset: number; from: number; to: number } | number => {
    const limit = intParam(req, 'limit', 100, 1, 1000);
    const offset = intParam(req, 'offset', 0, 0, 1_000_000);
    const from = timeParamUs(req, 'from', 0);
    const to = timeParamUs(req, 'to', Number.MAX_SAFE_INTEGER);
    for (const v of [limit, offset, from, to]) if (v < 0) return v;
    return { limit, offset, from, to };
  };
  const add = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, limit: 'private' | 'options-place' | 'options-cancel',
    handler: (req: ApiRequest, reply: Reply) => void): void => {
    router.add({ method, pattern: `${P}${path}`, access: OPTIONS, limit, handler });
  };

  add('GET', '/accounts', 'private', (req, reply) => {
    if (!funded(req.uid)) return reply.error(ResultCode.UserNotFound);
    reply.json(200, renderOptionsAccount(ex(), req.uid, SETTLE));
  });

  add('GET', '/account_book', 'private', (req, reply) => {
    const pg = page(req);
    if (typeof pg === 'number') return reply.error(pg);
    const type = queryParam(req, 'type') ?? '';
    if (type !== '' && !['dnw', 'prem', 'fee', 'refr', 'set'].includes(type)) return reply.error(ResultCode.InvalidParam);
    const entries = ex().ledger.accountBook(req.uid, { kind: AccountKind.Options, sub: 0, currency: SETTLE, from: pg.from, to: pg.to,
      limit: 100_000 }).filter((e) => type === '' || optionsBookType(e.type) === type);
    reply.json(200, entries.slice(pg.offset, pg.offset + pg.limit).map((e) => renderOptionsBookEntry(ex(), e)));
  });

  add('GET', '/positions', 'private', (req, reply) => {
    const s = scope(req);
    if (typeof s === 'number') return reply.error(s);
    const out: Record<string, unknown>[] = [];
    ex().options.rows.forEach((p, row) => {
      if (p.uid === req.uid && p.size !== 0 && inScope(s, p.ci)) out.push(renderOptionPosition(ex(), row, now()));
    });
    reply.json(200, out);
  });

  add('GET', '/positions/{contract}', 'private', (req, reply) => {
    const ci = parseOptionContract(ex(), req.params[0]);
    if (ci < 0) return reply.error(ci);
    const row = ex().options.find(req.uid, ci);
    reply.json(200, row < 0 ? renderEmptyOptionPosition(ex(), req.uid, ci, now()) : renderOptionPosition(ex(), row, now()));
  });

  const settlementsOf = (req: ApiRequest, s: { ui: number; ci: number }, from: number, to: number) =>
    ex().options.userSettlements.filter((r) => r.uid === req.uid && inScope(s, r.ci) && r.t * 1e6 >= from && r.t * 1e6 <= to).reverse();

  add('GET', '/position_close', 'private', (req, reply) => {
    const s = scope(req);
    if (typeof s === 'number') return reply.error(s);
    const S = ex().options;
    const out: Record<string, unknown>[] = [];
    for (let i = S.closes.length - 1; i >= 0; i--) {
      const r = S.closes[i]!;
      if (r.uid === req.uid && inScope(s, r.ci)) out.push(renderOptionsPositionClose(ex(), r));
    }
    reply.json(200, out);
  });

  add('GET', '/my_settlements', 'private', (req, reply) => {
    const s = scope(req);
    if (typeof s === 'number') return reply.error(s);
    const pg = page(req);
    if (typeof pg === 'number') return reply.error(pg);
    const S = ex().options;
    reply.json(200, settlementsOf(req, s, pg.from, pg.to).slice(pg.offset, pg.offset + pg.limit).map((r) => {
      const k = S.contracts[r.ci]!;
      const u = S.underlyings[k.u]!;
      return { time: r.t, underlying: u.name, contract: k.name, strike_price: k.strikeText, settle_price: priceText(u, r.price),
        size: r.size, settle_profit: moneyText(u, BigInt(r.profit)), fee: '0', realised_pnl: moneyText(u, BigInt(r.pnl)) };
    }));
  });

  add('POST', '/orders', 'options-place', (req, reply) => {
    const body = bodyObject(req);
    if (body === undefined) return reply.error(ResultCode.InvalidBody, 'Order body required');
    if (!funded(req.uid)) return reply.error(ResultCode.UserNotFound);
    const { cmd } = deps;
    const parsed = parseOptionsOrder(ex(), req.uid, body, cmd);
    if (parsed !== ResultCode.Ok) return reply.error(parsed);
    gateway.submit(cmd, (code, c) => {
      if (code !== ResultCode.Ok) return reply.error(code);
      const r = ex().orders.find(c.orderId);
      if (r < 0) return reply.error(ResultCode.OrderNotFound);
      reply.json(201, renderOptionOrder(ex(), r));
    });
  });

  /** `uid`'s options orders in scope, open or finished (not retired), newest first. */
  const ordersOf = (uid: number, s: { ui: number; ci: number }, open: boolean): number[] => {
    const O = ex().orders;
    const S = ex().options;
    const mine = (r: number): boolean => inScope(s, S.contractOf(O.market[r]!));
    if (open) return O.openOf(uid).filter(mine).reverse();
    return O.finishedOf(uid).filter((r) => mine(r) && !isRetired(deps, r));
  };

  add('GET', '/orders', 'private', (req, reply) => {
    const status = queryParam(req, 'status');
    if (status === undefined || status === '') return reply.error(ResultCode.MissingParam, 'status is required');
    if (status !== 'open' && status !== 'finished') return reply.error(ResultCode.InvalidParam, 'status must be open or finished');
    const s = scope(req);
    if (typeof s === 'number') return reply.error(s);
    const pg = page(req);
    if (typeof pg === 'number') return reply.error(pg);
    const O = ex().orders;
    const records = ordersOf(req.uid, s, status === 'open').filter((r) => O.createTime[r]! >= pg.from && O.createTime[r]! <= pg.to);
    reply.json(200, records.slice(pg.offset, pg.offset + pg.limit).map((r) => renderOptionOrder(ex(), r)),
      paginationHeaders(pg.limit, pg.offset, records.length));
  });

  /** The record of `uid`'s options order `idText`, or OrderNotFound. */
  const findOrder = (uid: number, idText: string): number => {
    const O = ex().orders;
    const id = parseOrderId(idText);
    const r = id < 0 ? -1 : O.find(id);
    return r < 0 || O.uid[r] !== uid || ex().options.contractOf(O.market[r]!) < 0 || isRetired(deps, r) ? ResultCode.OrderNotFound : r;
  };

  add('GET', '/orders/{order_id}', 'private', (req, reply) => {
    const r = findOrder(req.uid, req.params[0]!);
    if (r < 0) return reply.error(r);
    reply.json(200, renderOptionOrder(ex(), r));
  });

  add('PUT', '/orders/{order_id}', 'options-place', (req, reply) => {
    const body = bodyObject(req);
    if (body === undefined) return reply.error(ResultCode.InvalidBody, 'Amendment body required');
    const r = findOrder(req.uid, req.params[0]!);
    if (r < 0) return reply.error(r);
    const id = ex().orders.id[r]!;
    const { cmd } = deps;
    const parsed = parseOptionsAmend(ex(), req.uid, r, body, cmd);
    if (parsed !== ResultCode.Ok) return reply.error(parsed);
    gateway.submit(cmd, (code) => {
      if (code !== ResultCode.Ok) return reply.error(code);
      reply.json(200, renderOptionOrder(ex(), ex().orders.find(id)));
    });
  });

  add('DELETE', '/orders/{order_id}', 'options-cancel', (req, reply) => {
    const r = findOrder(req.uid, req.params[0]!);
    if (r < 0) return reply.error(r);
    const O = ex().orders;
    const id = O.id[r]!;
    const { cmd } = deps;
    cmd.clear();
    cmd.type = CommandType.CancelOrder;
    cmd.uid = req.uid; cmd.market = O.market[r]!; cmd.orderId = id;
    gateway.submit(cmd, (code) => {
      if (code !== ResultCode.Ok) return reply.error(code);
      reply.json(200, renderOptionOrder(ex(), ex().orders.find(id)));
    });
  });

  add('DELETE', '/orders', 'options-cancel', (req, reply) => {
    const s = scope(req);
    if (typeof s === 'number') return reply.error(s);
    const sideText = queryParam(req, 'side');
    const side = sideText === undefined || sideText === '' ? 0 : sideText === 'ask' ? Side.Sell : sideText === 'bid' ? Side.Buy : -1;
    if (side < 0) return reply.error(ResultCode.InvalidParam, 'side must be ask or bid');
    const O = ex().orders;
    const records = ordersOf(req.uid, s, true).filter((r) => side === 0 || O.side[r] === side);
    if (records.length === 0) return reply.json(200, []);
    const out: Record<string, unknown>[] = [];
    let pending = records.length;
    gateway.submitGroup(records.map((r) => {
      const c = new Command();
      c.type = CommandType.CancelOrder;
      c.uid = req.uid; c.market = O.market[r]!; c.orderId = O.id[r]!;
      return [c, (_code, _c, ev) => {
        for (let i = 0; i < ev.count; i++) {
          if (ev.kind[i] !== EventKind.Finished) continue;
          const f = ex().orders.find(ev.orderId[i]!);
          if (f >= 0) out.push(renderOptionOrder(ex(), f));
        }
        if (--pending === 0) reply.json(200, out);
      }] as const;
    }));
  });

  add('GET', '/my_trades', 'private', (req, reply) => {
    const s = scope(req);
    if (typeof s === 'number') return reply.error(s);
    const pg = page(req);
    if (typeof pg === 'number') return reply.error(pg);
    const T = ex().trades;
    const S = ex().options;
    const out: Record<string, unknown>[] = [];
    let skip = pg.offset;
    for (let id = T.count; id >= 1 && id > T.count - T.capacity && out.length < pg.limit; id--) {
      const t = T.slotOf(id);
      if (T.takerUid[t] !== req.uid && T.makerUid[t] !== req.uid) continue;
      if (!inScope(s, S.contractOf(T.market[t]!)) || T.time[t]! < pg.from || T.time[t]! > pg.to) continue;
      if (skip > 0) { skip--; continue; }
      out.push(renderOptionTrade(ex(), id, req.uid));
    }
    reply.json(200, out);
  });
}
