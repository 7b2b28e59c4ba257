// Commands the push tests submit to an inline gateway: a BTC_USDT limit order and a spot credit, each expected to
// succeed.
import { expect } from 'vitest';
import { Command, CommandType } from '../../../src/core/command.js';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import { ResultCode } from '../../../src/core/result-code.js';
import type { InlineGateway } from '../../../src/engine/gateway.js';
import { parseCreateOrder } from '../../../src/gate/spot-order-request.js';

/** Places `uid`'s BTC_USDT limit order; returns its id. */
export function placeOn(gw: InlineGateway, uid: number, side: string, amount: string, price: string): number {
  const cmd = new Command();
  expect(parseCreateOrder(gw.exchange, uid, { currency_pair: 'BTC_USDT', side, amount, price }, cmd)).toBe(ResultCode.Ok);
  let id = 0;
  gw.submit(cmd, (code, c) => { expect(code).toBe(ResultCode.Ok); id = c.orderId; });
  return id;
}

/** Credits `amount` of `currency` to `uid`'s spot account (a wide currency's amount goes as text). */
export function creditOn(gw: InlineGateway, uid: number, currency: string, amount: string): void {
  const c = new Command();
  c.type = CommandType.Credit; c.uid = uid; c.kind = AccountKind.Spot; c.currency = gw.exchange.currencyIndex(currency);
  const units = gw.exchange.ledger.parse(currency, amount);
  if (typeof units === 'bigint') c.text = units.toString(); else c.amount = units;
  gw.submit(c, () => undefined);
}
