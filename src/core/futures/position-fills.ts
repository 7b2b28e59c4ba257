/**
 * What a fill does to one position: the one place that changes a position's size, basis and margin, used by
 * order fills (futures-orders.ts), the liquidator's takeover and auto-deleveraging (futures-liquidation.ts).
 *
 * A fill of k contracts at price p for the side that buys (`buy`) or sells, on a position of size n, basis B
 * and margin Mg (its ledger hold), with fee rate `rate`:
 *
 * 1. Fee: f = value × rate, rounded up (a fee paid rounds up, a rebate received toward zero: ⌊value × |rate|⌋);
 *    paid from the order's margin hold (`orderKey`, what it set aside), then available, then the position's
 *    margin; what none of them holds is forgiven (not charged).
 * 2. Closing part kc = min(k, |n|) when the fill is against the position: the basis leaves pro rata,
 *    Br = B × kc / |n| (truncated; all of it when the position empties), and the realised PnL is
 *    cash(kc at p) + Br. A profit goes to available from clearing; a loss is paid from the position's margin,
 *    then available, then is a deficit (the fund's: the user realises only what it paid). Then the slice of margin the closed contracts carried,
 *    ⌊Mg × kc / |n|⌋ less any loss it paid (all of what is left when the position empties), returns to available.
 * 3. Opening part ko = k − kc: B += cash(k at p) − cash(kc at p) (so a side's parts sum to the whole fill's
 *    cash, exactly the other side's negation; an inverse value rounds per part otherwise); margin
 *    ⌈value(ko, p) / L⌉ moves to the position, from the order's hold first, then available; if both are short
 *    the position opens with what there was (it may be liquidated at once: see docs/futures.md).
 * 4. A dual-mode leg never changes sign: a fill that closes more than the leg holds, or meets it empty (a reduce-only order that
 *    outlived its leg) opens the excess on the other leg (`sibling`).
 * 5. Deficits (losses no margin or balance could pay) are paid by the insurance fund into clearing; what the
 *    fund cannot pay is `unbacked` (futures-state.ts).
 *
 * The liquidator (INSURANCE_UID) pays no fee and holds no margin: its futures account is the insurance fund.
 */
import { curOf, HoldType, INSURANCE_UID, NO_HOLD } from '../ledger/futures-funds.js';
import { invariant } from '../invariant.js';
import { ResultCode } from '../result-code.js';
import type { ExchangeContext } from '../exchange/context.js';
import { type Contract, cashFlow, valueAt } from './contract.js';
import { formatSigned, minBig, ofRate, Round } from './futures-math.js';
import { FuturesState } from './futures-state.js';
import { PositionSlot, positionHoldKey } from './position-store.js';
import { effectiveLeverage, entryTicks, openingMargin } from './risk.js';

/** What one side of a fill did to its position. */
export interface FillOutcome {
  /** Contracts of the fill that closed (reduced) a position. */
  closed: number;
  /** Realised PnL of the closing part, and the fee (negative: rebate), in BigInt settle units. */
  pnl: bigint;
  fee: bigint;
}

/** Reusable outcome (no allocation per fill beyond BigInt arithmetic). */
const OUT: FillOutcome = { closed: 0, pnl: 0n, fee: 0n };

/** Text of account-book entries of a fill: "<contract>:<order id>" as Gate writes it. */
const entryText = (c: Contract, ref: number): string => `${c.name}:${ref}`;

/**
 * Pays `amount` ≥ 0 of (uid, cur) from places a, b, c in turn (a hold key, NO_HOLD for available; c = 0 and a
 * repeated NO_HOLD are skipped); returns what is left unpaid.
 */
function payFrom(ctx: ExchangeContext, uid: number, cur: number, a: number, b: number, c: number, amount: bigint,
  pay: (key: number, units: bigint) => void): bigint {
  let left = amount;
  left = payOne(ctx, uid, cur, a, left, pay);
  if (b !== a) left = payOne(ctx, uid, cur, b, left, pay);
  if (c !== 0 && c !== a && c !== b) left = payOne(ctx, uid, cur, c, left, pay);
  return left;
}

function payOne(ctx: ExchangeContext, uid: number, cur: number, key: number, left: bigint,
  pay: (key: number, units: bigint) => void): bigint {
  if (left === 0n) return 0n;
  const F = ctx.ledger.futures;
  const has = key === NO_HOLD ? F.available(uid, cur) : F.held(key);
  if (has <= 0n) return left;
  const take = minBig(has, left);
  pay(key, take);
  return left - take;
}

/** Covers a deficit of `amount` settle units in clearing: the insurance fund pays what it can, the rest is unbacked. */
export function coverDeficit(ctx: ExchangeContext, cur: number, amount: bigint, time: number, text: string, ref: number): void {
  if (amount <= 0n) return;
  const F = ctx.ledger.futures;
  const paid = minBig(F.insuranceFund(cur), amount);
  if (paid > 0n) ok(F.insuranceClearing(time, cur, -paid, text, ref));
  ctx.futures.unbacked[curOf(cur)] = ctx.futures.unbacked[curOf(cur)]! + (amount - paid);
}

function ok(code: number): void {
  invariant(code === ResultCode.Ok, `futures settlement failed (code ${code})`);
}

/**
 * Applies one side of a fill to position row `row` (see the module comment). `orderKey` is the order's margin
 * hold (0: none), `ref` the id the account-book entries cite, `reason` the close history's text when the
 * position empties. Returns the reused FillOutcome (copy what you keep).
 */
export function tradePosition(ctx: ExchangeContext, ci: number, row: number, buy: boolean, k: number, p: number, rate: bigint,
  orderKey: number, ref: number, time: number, reason: string, sibling = -1,
  whole = cashFlow(ctx.futures.contracts[ci]!, buy, BigInt(k), BigInt(p))): FillOutcome {
  const S = ctx.futures;
  const P = S.positions;
  const c = S.contracts[ci]!;
  const cur = S.acct[ci]!;
  const L = ctx.ledger.futures;
  const uid = P.uid[row]!;
  const posKey = positionHoldKey(row);
  const text = entryText(c, ref);
  const system = uid === INSURANCE_UID;
  const price = BigInt(p);
  OUT.closed = 0;
  OUT.pnl = 0n;
  OUT.fee = 0n;
  ensurePositionHold(ctx, row, cur, time);

  // 1. Fee on the whole fill. A fee nobody can pay (order hold, available and margin all spent) is forgiven.
  const value = valueAt(c, BigInt(k), price);
  // Rounded up: a fee paid rounds up, a rebate (negative) rounds toward zero — the user receives the lesser.
  let fee = system ? 0n : ofRate(value, rate, Round.Up);
  if (fee > 0n) {
    const pay = (key: number, units: bigint): void => ok(L.chargeFee(time, uid, cur, key, units, text, ref));
    fee -= orderKey !== 0 ? payFrom(ctx, uid, cur, orderKey, NO_HOLD, posKey, fee, pay) : payFrom(ctx, uid, cur, NO_HOLD, posKey, 0, fee, pay);
  } else if (fee < 0n) {
    ok(L.chargeFee(time, uid, cur, NO_HOLD, fee, text, ref));
  }
  OUT.fee = fee;
  if (fee !== 0n) {
    P.pnlFee[row] = P.pnlFee[row]! - fee;
    S.account(uid, cur).fee -= fee;
  }

  // 2. Closing part. The cash of the whole fill is `whole`; the opening part gets what the closing part leaves,
  // so one side's parts sum to exactly the other side's negation (an inverse value rounds per part otherwise).
  let closeCash = 0n;
  const n = P.size[row]!;
  const against = (n > 0 && !buy) || (n < 0 && buy);
  const kc = against ? Math.min(k, Math.abs(n)) : 0;
  if (kc > 0) {
    const absN = BigInt(Math.abs(n));
    const basis = P.basis[row]!;
    const full = kc === Math.abs(n);
    const br = full ? basis : (basis * BigInt(kc)) / absN;
    closeCash = kc === k ? whole : cashFlow(c, buy, BigInt(kc), price);
    const pnl = closeCash + br;
    const margin = L.held(posKey);
    const slice = full ? margin : (margin * BigInt(kc)) / absN;
    const entry = full ? entryTicks(c, n, basis, 8) : 0n;
    P.basis[row] = basis - br;
    P.size[row] = n + (buy ? kc : -kc);
    // What the user realises is what it was paid or paid: a loss it could not pay is the fund's (a deficit), so
    // its realised figures and history match its account book.
    let realised = pnl;
    if (pnl >= 0n) {
      ok(L.realisePnl(time, uid, cur, NO_HOLD, pnl, text, ref));
      ok(L.move(posKey, NO_HOLD, slice));
    } else {
      const loss = -pnl;
      const unpaid = payFrom(ctx, uid, cur, posKey, NO_HOLD, 0, loss,
        (key, units) => ok(L.realisePnl(time, uid, cur, key, -units, text, ref)));
      coverDeficit(ctx, cur, unpaid, time, text, ref);
      realised += unpaid;
      const back = full ? L.held(posKey) : minBig(L.held(posKey), slice > loss ? slice - loss : 0n);
      ok(L.move(posKey, NO_HOLD, back));
    }
    P.pnlPnl[row] = P.pnlPnl[row]! + realised;
    S.account(uid, cur).pnl += realised;
    OUT.closed = kc;
    OUT.pnl = realised;
    if (P.size[row] === 0) recordClose(ctx, ci, row, n, entry, p, reason, time);
  }

  // 3./4. Opening part.
  let ko = k - kc;
  const slot = P.slot[row]!;
  if (ko > 0 && sibling >= 0 && ((slot === PositionSlot.DualLong && !buy) || (slot === PositionSlot.DualShort && buy))) {
    // A dual leg never opens the wrong way (a reduce-only order that outlived its leg, whether this fill emptied
    // it or it was already empty): the excess opens the other leg.
    tradePosition(ctx, ci, sibling, buy, ko, p, 0n, orderKey, ref, time, reason, -1, whole - closeCash);
    ko = 0;
  }
  if (ko > 0) {
    if (P.size[row] === 0) {
      P.openTime[row] = time;
      P.maxSize[row] = 0;
      P.accumSize[row] = 0;
    }
    P.basis[row] = P.basis[row]! + (whole - closeCash);
    P.size[row] = P.size[row]! + (buy ? ko : -ko);
    P.accumSize[row] = P.accumSize[row]! + ko;
    if (!system) {
      const lev = effectiveLeverage(c, P.leverage[row]!, P.crossLimit[row]!, P.riskLimit[row]!);
      const need = openingMargin(valueAt(c, BigInt(ko), price), lev);
      payFrom(ctx, uid, cur, orderKey, NO_HOLD, 0, need, (key, units) => ok(L.move(key, posKey, units)));
    }
  }
  P.maxSize[row] = Math.max(P.maxSize[row]!, Math.abs(P.size[row]!));
  P.touch(row, time);
  return OUT;
}

/** Opens the position's margin hold (0 units) when it has none yet. */
export function ensurePositionHold(ctx: ExchangeContext, row: number, cur: number, time: number): void {
  const key = positionHoldKey(row);
  const L = ctx.ledger.futures;
  if (L.held(key) >= 0n) return;
  const P = ctx.futures.positions;
  ok(L.openHold(time, key, P.uid[row]!, cur, P.market[row]!, HoldType.FuturesPosition, 0n));
}

/** The position of `row` just emptied: history totals and a position_close row (`entry`: ticks × 10^8 before). */
export function recordClose(ctx: ExchangeContext, ci: number, row: number, was: number, entry: bigint, closeTicks: number,
  reason: string, time: number): void {
  const S = ctx.futures;
  const P = S.positions;
  const c = S.contracts[ci]!;
  const pnl = P.pnlPnl[row]! + P.pnlFund[row]! + P.pnlFee[row]!;
  P.historyPnl[row] = P.historyPnl[row]! + pnl;
  P.lastClosePnl[row] = pnl;
  const scale = S.contracts[ci]!.settleScale;
  FuturesState.push(S.closes, {
    t: time, uid: P.uid[row]!, market: P.market[row]!, slot: P.slot[row]!, side: was > 0 ? 'long' : 'short',
    pnl: formatSigned(pnl, scale), pnlPnl: formatSigned(P.pnlPnl[row]!, scale), pnlFund: formatSigned(P.pnlFund[row]!, scale),
    pnlFee: formatSigned(P.pnlFee[row]!, scale), text: reason, maxSize: P.maxSize[row]!, accumSize: P.accumSize[row]!,
    firstOpenTime: P.openTime[row]!, entryPrice: formatSigned(entry, c.priceScale + 8),
    closePrice: formatSigned(BigInt(closeTicks), c.priceScale),
  });
  P.pnlPnl[row] = 0n;
  P.pnlFee[row] = 0n;
  P.pnlFund[row] = 0n;
  P.openTime[row] = 0;
}
