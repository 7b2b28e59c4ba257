/**
 * The exchange's state outside its books, as plain columns (for snapshots): ledger, order records, trade
 * ring and the order-id counter, and its restoration into a fresh exchange of the same definition.
 *
 * Layout: OrderStoreState rows are the open orders first (`openCount`, each user's in entry order), then the
 * finished window oldest first; TradeLogState rows are the retained trades oldest first. Every column owns
 * its buffer, so the whole state can be transferred to another thread without copying.
 *
 * Invariants of a restore: open orders re-enter their users' lists in the same order, finished ones re-enter
 * the window in the same order, and retained trades return to the slots they had, so hashes, queries and
 * future behaviour match the exported exchange. Record numbers may differ (nothing observable uses them).
 *
 * Cost: O(open + finished orders + retained trades) each way; allocates the columns (no per-row objects
 * except non-empty texts and wide fees). Capturing 1M open orders copies ~130 bytes each.
 */
import type { FuturesStateData } from '../futures/futures-state.js';
import type { OptionsStateData } from '../options/options-state.js';
import { type AmountColumn, packAmounts, packText, type TextColumn, unpackAmounts, unpackText } from '../ledger/columns.js';
import type { LedgerState } from '../ledger/ledger-state.js';
import type { UnifiedStateData } from '../unified/unified-state.js';
import type { RecordTableData } from '../records/record-table.js';
import { invariant } from '../invariant.js';
import { AccountKind } from '../ledger/account-kinds.js';
import type { OrderStore } from './order-store.js';
import type { TradeLog } from './trade-log.js';

/** Order records; see the module header. */
export interface OrderStoreState {
  readonly openCount: number;
  readonly id: Float64Array;
  readonly uid: Float64Array;
  readonly market: Int32Array;
  readonly side: Uint8Array;
  readonly type: Uint8Array;
  readonly tif: Uint8Array;
  readonly stpAct: Uint8Array;
  readonly stpId: Int32Array;
  readonly finishAs: Uint8Array;
  readonly price: Float64Array;
  readonly amount: Float64Array;
  readonly iceberg: Float64Array;
  readonly left: Float64Array;
  readonly filledLots: Float64Array;
  readonly filledNotional: Float64Array;
  readonly createTime: Float64Array;
  readonly updateTime: Float64Array;
  readonly text: TextColumn;
  readonly fee: AmountColumn;
  readonly amendText: TextColumn;
  /** Each order's packed account byte (order-store.ts packAccount); absent in snapshots before it: all Spot. */
  readonly account?: Uint8Array | undefined;
}

/** The trade ring; see the module header. */
export interface TradeLogState {
  readonly count: number;
  readonly marketSeq: Float64Array;
  readonly time: Float64Array;
  readonly market: Int32Array;
  readonly takerOrder: Float64Array;
  readonly makerOrder: Float64Array;
  readonly takerUid: Float64Array;
  readonly makerUid: Float64Array;
  readonly takerSide: Uint8Array;
  readonly price: Float64Array;
  readonly lots: Float64Array;
  readonly seq: Float64Array;
  readonly takerFee: AmountColumn;
  readonly makerFee: AmountColumn;
}

/** Everything the exchange's state hash covers, apart from the books. */
export interface ExchangeState {
  readonly ledger: LedgerState;
  readonly orders: OrderStoreState;
  readonly trades: TradeLogState;
  readonly lastOrderId: number;
  /** Unified-account modes, accrual hour and records; absent in snapshots written before them. */
  readonly unified?: UnifiedStateData | undefined;
  /** The fronts' records (records/record-table.ts); absent in snapshots written before them. */
  readonly records?: RecordTableData | undefined;
  /** Perpetual futures (futures/futures-state.ts); absent without contracts and in snapshots written before them. */
  readonly futures?: FuturesStateData | undefined;
  /** Options (options/options-state.ts); absent without options. */
  readonly options?: OptionsStateData | undefined;
}

type Column = Float64Array | Int32Array | Uint8Array;

/** `src[rows[k]]` for every k, into a new column of the same type. @allocates */
function gather<T extends Column>(src: T, rows: readonly number[]): T {
  const out = new (src.constructor as new (n: number) => T)(rows.length);
  for (let k = 0; k < rows.length; k++) out[k] = src[rows[k]!]!;
  return out;
}

/** Copies the order records into columns. @allocates */
export function exportOrders(o: OrderStore): OrderStoreState {
  const open = o.openRecords();
  const rows = open.concat(o.finishedRecords());
  return {
    openCount: open.length,
    id: gather(o.id, rows), uid: gather(o.uid, rows), market: gather(o.market, rows), side: gather(o.side, rows),
    type: gather(o.type, rows), tif: gather(o.tif, rows), stpAct: gather(o.stpAct, rows), stpId: gather(o.stpId, rows),
    finishAs: gather(o.finishAs, rows), price: gather(o.price, rows), amount: gather(o.amount, rows),
    iceberg: gather(o.iceberg, rows), left: gather(o.left, rows), filledLots: gather(o.filledLots, rows),
    filledNotional: gather(o.filledNotional, rows), createTime: gather(o.createTime, rows),
    updateTime: gather(o.updateTime, rows),
    text: packText(rows.length, (k) => o.text[rows[k]!]!),
    fee: packAmounts(rows.length, (k) => o.fee[rows[k]!]!),
    amendText: packText(rows.length, (k) => o.amendText[rows[k]!]!),
    account: gather(o.account, rows),
  };
}

/** Restores order records into an empty store. @allocates */
export function importOrders(o: OrderStore, s: OrderStoreState): void {
  invariant(o.openCount === 0 && o.finishedRecords().length === 0, 'snapshot: order import needs an empty store');
  const n = s.id.length;
  const text = unpackText(s.text, n);
  const amendText = unpackText(s.amendText, n);
  const fee = unpackAmounts(s.fee);
  for (let i = 0; i < n; i++) {
    const r = o.open(s.id[i]!, s.uid[i]!, s.market[i]!, s.side[i]!, s.type[i]!, s.tif[i]!, s.price[i]!, s.amount[i]!,
      s.iceberg[i]!, s.stpId[i]!, s.stpAct[i]!, text[i]!, s.createTime[i]!, fee[i]!, s.account?.[i] || AccountKind.Spot);
    o.left[r] = s.left[i]!;
    o.filledLots[r] = s.filledLots[i]!;
    o.filledNotional[r] = s.filledNotional[i]!;
    o.updateTime[r] = s.updateTime[i]!;
    o.amendText[r] = amendText[i]!;
    if (i >= s.openCount) o.finish(r, s.finishAs[i]!, s.left[i]!, s.updateTime[i]!);
  }
}

/** Copies the trade ring (retained trades, oldest first) into columns. @allocates */
export function exportTrades(t: TradeLog): TradeLogState {
  const first = Math.max(1, t.count - t.capacity + 1);
  const rows: number[] = [];
  for (let id = first; id <= t.count; id++) rows.push((id - 1) % t.capacity);
  return {
    count: t.count,
    marketSeq: Float64Array.from(t.marketSequences()),
    time: gather(t.time, rows), market: gather(t.market, rows), takerOrder: gather(t.takerOrder, rows),
    makerOrder: gather(t.makerOrder, rows), takerUid: gather(t.takerUid, rows), makerUid: gather(t.makerUid, rows),
    takerSide: gather(t.takerSide, rows), price: gather(t.price, rows), lots: gather(t.lots, rows),
    seq: gather(t.marketSeq, rows),
    takerFee: packAmounts(rows.length, (k) => t.takerFee[rows[k]!]!),
    makerFee: packAmounts(rows.length, (k) => t.makerFee[rows[k]!]!),
  };
}

/** Restores the trade ring into an empty log of the same capacity. @allocates */
export function importTrades(t: TradeLog, s: TradeLogState): void {
  const n = s.time.length;
  invariant(t.count === 0, 'snapshot: trade import needs an empty log');
  invariant(n <= t.capacity && n <= s.count, 'snapshot: trades do not fit the log');
  const takerFee = unpackAmounts(s.takerFee);
  const makerFee = unpackAmounts(s.makerFee);
  for (let k = 0; k < n; k++) {
    const i = (s.count - n + k) % t.capacity;
    t.time[i] = s.time[k]!; t.market[i] = s.market[k]!; t.takerOrder[i] = s.takerOrder[k]!;
    t.makerOrder[i] = s.makerOrder[k]!; t.takerUid[i] = s.takerUid[k]!; t.makerUid[i] = s.makerUid[k]!;
    t.takerSide[i] = s.takerSide[k]!; t.price[i] = s.price[k]!; t.lots[i] = s.lots[k]!; t.marketSeq[i] = s.seq[k]!;
    t.takerFee[i] = takerFee[k]!; t.makerFee[i] = makerFee[k]!;
  }
  t.restoreCounters(s.count, Array.from(s.marketSeq));
}
