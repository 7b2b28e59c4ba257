/**
 * The expiry step of the futures services (futures-services.ts): once the engine clock reaches a delivery
 * contract's expire_time, the commands that settle it, each submitted after the previous one completed:
 *   1. a CancelAll for each owner with open orders in the contract (position rows with pending orders, in
 *      row order: deterministic for a given state);
 *   2. DeliverySettle (core/futures/delivery-settlement.ts): every position closed at the settlement price.
 * A refused DeliverySettle (say an order arrived between the cancels, which the core refuses for an expired
 * contract anyway) is tried again on the next pass. Prices of an expired contract are not updated any more
 * (futures-services.ts skips it), so its settlement price never includes an index read after expiry.
 *
 * Costs: O(position rows) per due contract per pass; nothing while no contract is due.
 */
import { Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { DeliveryPhase, deliveryPhase } from '../../core/futures/delivery-settlement.js';
import { ResultCode } from '../../core/result-code.js';
import { cancelAllStep } from './futures-liquidator.js';

/** The first contract index ≥ `from` that is expired and not settled at `nowUs`, or -1. */
export function expiryDue(ex: Exchange, nowUs: number, from = 0): number {
  const S = ex.futures;
  for (let ci = from; ci < S.contracts.length; ci++) {
    if (S.contracts[ci]!.expireTime > 0 && deliveryPhase(ex, ci, nowUs) === DeliveryPhase.Expired) return ci;
  }
  return -1;
}

/** True when contract `ci` has passed its expire time at `nowUs` (its prices stay as they were). */
export const isExpired = (ex: Exchange, ci: number, nowUs: number): boolean => deliveryPhase(ex, ci, nowUs) >= DeliveryPhase.Expired;

/** Counts of the expiry step since the services started. */
export interface ExpiryStats { settlements: number }

/** The cancels and the settlement of contract `ci` (see the module comment). */
export function* expiryStep(ex: Exchange, ci: number, stats: ExpiryStats & { commands: number }): Generator<Command, void, ResultCode> {
  const S = ex.futures;
  const P = S.positions;
  const market = S.marketOf[ci]!;
  const c = new Command();
  const owners: number[] = [];
  for (let r = 0; r < P.count; r++) {
    if (P.market[r] === market && P.pending[r] !== 0 && !owners.includes(P.uid[r]!)) owners.push(P.uid[r]!);
  }
  for (const uid of owners) yield* cancelAllStep(c, uid, market, stats);
  c.clear();
  c.type = CommandType.DeliverySettle; c.market = market;
  stats.commands++;
  if ((yield c) === ResultCode.Ok) stats.settlements++;
}
