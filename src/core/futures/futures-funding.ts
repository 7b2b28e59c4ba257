/**
 * The price and funding commands of perpetual contracts (fields: futures-commands.ts), issued by the engine's
 * edge (src/engine/futures: the price clock) or the control plane, journaled like any other.
 *
 * FuturesSetPrices sets a contract's mark and/or index (ticks) and its indicative funding rate (capped), and
 * starts its funding schedule. FuturesFunding, once the contract's funding time has come, makes every position
 * pay or receive value(mark) × rate: payers first, rounded up, into the insurance fund; then receivers, rounded
 * down, from it, never more than it holds; a payer that cannot pay is charged what it has. Nothing due:
 * NothingDue.
 */
import { type Command } from '../command.js';
import type { ExchangeContext } from '../exchange/context.js';
import { BookType } from '../ledger/account-book.js';
import { curOf, INSURANCE_UID, NO_HOLD } from '../ledger/futures-funds.js';
import { ResultCode } from '../result-code.js';
import { type Contract, isDelivery, valueAt } from './contract.js';
import { deliveryPriceSample } from './delivery-settlement.js';
import { abs, divRound, maxBig, minBig, RATE_ONE, Round } from './futures-math.js';
import { FuturesState } from './futures-state.js';
import { positionHoldKey } from './position-store.js';
import { contractOfCommand, ok } from './command-parts.js';

export function setPrices(ctx: ExchangeContext, c: Command): ResultCode {
  const ci = contractOfCommand(ctx, c);
  if (ci < 0) return ResultCode.ContractNotFound;
  const S = ctx.futures;
  const k = S.contracts[ci]!;
  const ticks = (v: number): boolean => Number.isSafeInteger(v) && v >= 0;
  if (!ticks(c.price) || !ticks(c.amount) || !Number.isSafeInteger(c.iceberg) || c.price % k.markTick !== 0) return ResultCode.InvalidParam;
  if (isDelivery(k)) {
    // No funding: the prices only, and the index as a settlement-price sample.
    const code = deliveryPriceSample(ctx, ci, c);
    if (code !== ResultCode.Ok) return code;
    if (c.price > 0) S.mark[ci] = c.price;
    if (c.amount > 0) S.index[ci] = c.amount;
    return ResultCode.Ok;
  }
  if (c.price > 0) S.mark[ci] = c.price;
  if (c.amount > 0) S.index[ci] = c.amount;
  const cap = k.fundingCap;
  S.indicativeRate[ci] = maxBig(-cap, minBig(cap, BigInt(c.iceberg)));
  S.fundingRate[ci] = S.indicativeRate[ci]!;
  if (S.nextFunding[ci] === 0) {
    const now = Math.floor(c.time / 1e6);
    S.nextFunding[ci] = (Math.floor(now / k.fundingInterval) + 1) * k.fundingInterval;
  }
  return ResultCode.Ok;
}

/** Funding of one contract at its rate (capped), each position paying or receiving value(mark) × rate. */
export function funding(ctx: ExchangeContext, c: Command): ResultCode {
  const ci = contractOfCommand(ctx, c);
  if (ci < 0) return ResultCode.ContractNotFound;
  const S = ctx.futures;
  const k = S.contracts[ci]!;
  const cur = S.acct[ci]!;
  const mark = S.mark[ci]!;
  if (!Number.isSafeInteger(c.iceberg) || S.nextFunding[ci] === 0 || c.time < S.nextFunding[ci]! * 1e6 || mark <= 0) return ResultCode.NothingDue;
  const rate = maxBig(-k.fundingCap, minBig(k.fundingCap, BigInt(c.iceberg)));
  const L = ctx.ledger.futures;
  const P = S.positions;
  const rows = P.openRows(c.market).filter((r) => P.uid[r] !== INSURANCE_UID);
  const t = Math.floor(c.time / 1e6);
  if (rate !== 0n) {
    // Payers first (rounded up), so the fund holds what receivers (rounded down) are paid.
    const payers = rows.filter((r) => (P.size[r]! > 0) === (rate > 0n));
    const receivers = rows.filter((r) => (P.size[r]! > 0) !== (rate > 0n));
    for (const r of payers) {
      const owed = fundingAmount(k, P.size[r]!, mark, abs(rate), Round.Up);
      const uid = P.uid[r]!;
      const key = positionHoldKey(r);
      const first = P.leverage[r] === 0 ? NO_HOLD : key;
      const second = P.leverage[r] === 0 ? key : NO_HOLD;
      let left = owed;
      for (const place of [first, second]) {
        if (left === 0n) break;
        const has = place === NO_HOLD ? L.available(uid, cur) : maxBig(0n, L.held(place));
        const take = minBig(has, left);
        if (take > 0n) ok(L.insuranceTransfer(c.time, uid, cur, place, -take, BookType.FuturesFund, k.name, 0));
        left -= take;
      }
      const paid = owed - left;
      P.pnlFund[r] = P.pnlFund[r]! - paid;
      S.account(uid, cur).fund -= paid;
      P.touch(r, c.time);
    }
    for (const r of receivers) {
      const due = fundingAmount(k, P.size[r]!, mark, abs(rate), Round.Down);
      const uid = P.uid[r]!;
      const got = minBig(due, L.insuranceFund(cur));
      if (got > 0n) ok(L.insuranceTransfer(c.time, uid, cur, P.leverage[r] === 0 ? NO_HOLD : positionHoldKey(r), got, BookType.FuturesFund, k.name, 0));
      P.pnlFund[r] = P.pnlFund[r]! + got;
      S.account(uid, cur).fund += got;
      P.touch(r, c.time);
    }
  }
  FuturesState.push(S.funding, { t, market: c.market, rate: rate.toString() });
  FuturesState.push(S.insurance, { t, cur: curOf(cur), balance: L.insuranceFund(cur).toString() });
  S.nextFunding[ci] = S.nextFunding[ci]! + k.fundingInterval * Math.max(1, Math.floor((t - S.nextFunding[ci]!) / k.fundingInterval) + 1);
  return ResultCode.Ok;
}

/** |n| × value at mark × |rate|, rounded as asked; inverse contracts from the exact |n| / mark. */
function fundingAmount(k: Contract, n: number, mark: number, rate: bigint, mode: Round): bigint {
  const size = BigInt(Math.abs(n));
  if (!k.inverse) return divRound(valueAt(k, size, BigInt(mark)) * rate, RATE_ONE, mode);
  return divRound(size * k.valueFactor * rate, BigInt(mark) * RATE_ONE, mode);
}

