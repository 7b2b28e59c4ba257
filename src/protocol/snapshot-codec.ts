/**
 * FlatBuffers codec of engine snapshots (schemas/snapshot.fbs) ↔ SnapshotData, the plain-column state that
 * `Exchange.exportState` and the books' `forEachResting` produce. Imports `./generated` under `Fb…` aliases;
 * generated types never leave this module.
 *
 * Encoding (off the hot path: a snapshot worker runs it) builds one buffer sized from the row counts, so
 * the builder rarely grows; every column is written element by element (flatbuffers 2.0 has no bulk copy),
 * about 10 ns per value. The returned array is the builder's own bytes (@allocates the whole payload).
 *
 * Decoding is zero-copy for numeric columns: they are typed-array views into `bytes` (which must outlive the
 * result and be 8-byte aligned; an unaligned input is copied once). Strings (sparse texts, wide amounts,
 * totals, the definition) allocate. Input must be a whole, checksummed payload: accessors do not
 * bounds-check against a truncated buffer.
 */
import { Builder, ByteBuffer } from 'flatbuffers';
import type { ExchangeState, OrderStoreState, TradeLogState } from '../core/exchange/exchange-state.js';
import { invariant } from '../core/invariant.js';
import type { AmountColumn, TextColumn } from '../core/ledger/columns.js';
import type { LedgerState } from '../core/ledger/ledger-state.js';
import type { UnifiedStateData } from '../core/unified/unified-state.js';
import type { RecordTableData } from '../core/records/record-table.js';
import type { FuturesStateData } from '../core/futures/futures-state.js';
import type { OptionsStateData } from '../core/options/options-state.js';
import {
  AmountColumn as FbAmountColumn,
  BookSnapshot as FbBookSnapshot,
  CurrencyTotals as FbCurrencyTotals,
  LedgerSnapshot as FbLedgerSnapshot,
  OrderStoreSnapshot as FbOrderStoreSnapshot,
  Snapshot as FbSnapshot,
  TextColumn as FbTextColumn,
  TradeLogSnapshot as FbTradeLogSnapshot,
} from './generated/snapshot_generated.js';

/** One book's resting orders in priority order (see OrderBook.forEachResting), as columns. */
export interface BookState {
  readonly id: Float64Array;
  readonly user: Float64Array;
  readonly stp: Int32Array;
  readonly side: Uint8Array;
  readonly tif: Uint8Array;
  readonly act: Uint8Array;
  readonly price: Float64Array;
  readonly amount: Float64Array;
  readonly left: Float64Array;
  readonly visible: Float64Array;
  readonly iceberg: Float64Array;
}

/** Everything a snapshot file holds. */
export interface SnapshotData {
  readonly formatVersion: number;
  /** Last applied sequence number. */
  readonly seq: number;
  /** µs since the epoch (engine clock) at capture. */
  readonly createdTime: number;
  /** The exchange definition as JSON (as the journal header's configJson). */
  readonly definitionJson: string;
  readonly exchange: ExchangeState;
  /** In market order. */
  readonly books: readonly BookState[];
}

type Num = Float64Array | Int32Array | Uint8Array;

function vec(b: Builder, a: Num): number {
  const n = a.length;
  if (a instanceof Float64Array) {
    b.startVector(8, n, 8);
    for (let i = n - 1; i >= 0; i--) b.addFloat64(a[i]!);
  } else if (a instanceof Int32Array) {
    b.startVector(4, n, 4);
    for (let i = n - 1; i >= 0; i--) b.addInt32(a[i]!);
  } else {
    b.startVector(1, n, 1);
    for (let i = n - 1; i >= 0; i--) b.addInt8(a[i]!);
  }
  return b.endVector();
}

function strings(b: Builder, list: readonly string[]): number {
  const offs = list.map((s) => b.createString(s));
  return FbTextColumn.createTextVector(b, offs);
}

const amounts = (b: Builder, c: AmountColumn): number =>
  FbAmountColumn.createAmountColumn(b, vec(b, c.num), vec(b, c.wideIndex), strings(b, c.wideText));
const texts = (b: Builder, c: TextColumn): number => FbTextColumn.createTextColumn(b, vec(b, c.index), strings(b, c.text));

function buildLedger(b: Builder, s: LedgerState): number {
  const F = FbLedgerSnapshot;
  const cur = F.createCurrenciesVector(b, s.currencies.map((t) =>
    FbCurrencyTotals.createCurrencyTotals(b, b.createString(t.supply), b.createString(t.totalIn), b.createString(t.totalOut),
      b.createString(t.clearing ?? '0'))));
  const o = [
    cur, vec(b, s.userUid), vec(b, s.userMain), vec(b, s.recUid), vec(b, s.recKind), vec(b, s.recSub), vec(b, s.recCur),
    amounts(b, s.available), amounts(b, s.locked), amounts(b, s.borrowed), amounts(b, s.interest),
    vec(b, s.holdOrder), vec(b, s.holdMarket), vec(b, s.holdSide), vec(b, s.holdType), vec(b, s.holdRec), vec(b, s.holdRecv),
    amounts(b, s.holdRemaining), vec(b, s.bookTime), vec(b, s.bookRec), vec(b, s.bookType), amounts(b, s.bookChange),
    amounts(b, s.bookBalance), texts(b, s.bookText), vec(b, s.bookRef),
  ] as const;
  F.startLedgerSnapshot(b);
  F.addCurrencies(b, o[0]); F.addUserUid(b, o[1]); F.addUserMain(b, o[2]); F.addRecUid(b, o[3]); F.addRecKind(b, o[4]);
  F.addRecSub(b, o[5]); F.addRecCur(b, o[6]); F.addAvailable(b, o[7]); F.addLocked(b, o[8]); F.addBorrowed(b, o[9]);
  F.addInterest(b, o[10]); F.addHoldOrder(b, o[11]); F.addHoldMarket(b, o[12]); F.addHoldSide(b, o[13]);
  F.addHoldType(b, o[14]); F.addHoldRec(b, o[15]); F.addHoldRecv(b, o[16]); F.addHoldRemaining(b, o[17]);
  F.addBookLastId(b, s.bookLastId); F.addBookTime(b, o[18]); F.addBookRec(b, o[19]); F.addBookType(b, o[20]);
  F.addBookChange(b, o[21]); F.addBookBalance(b, o[22]); F.addBookText(b, o[23]); F.addBookRef(b, o[24]);
  return F.endLedgerSnapshot(b);
}

function buildOrders(b: Builder, s: OrderStoreState): number {
  const F = FbOrderStoreSnapshot;
  const o = [
    vec(b, s.id), vec(b, s.uid), vec(b, s.market), vec(b, s.side), vec(b, s.type), vec(b, s.tif), vec(b, s.stpAct),
    vec(b, s.stpId), vec(b, s.finishAs), vec(b, s.price), vec(b, s.amount), vec(b, s.iceberg), vec(b, s.left),
    vec(b, s.filledLots), vec(b, s.filledNotional), vec(b, s.createTime), vec(b, s.updateTime), texts(b, s.text),
    amounts(b, s.fee), texts(b, s.amendText), vec(b, s.account ?? new Uint8Array(s.id.length)),
  ] as const;
  F.startOrderStoreSnapshot(b);
  F.addOpenCount(b, s.openCount); F.addId(b, o[0]); F.addUid(b, o[1]); F.addMarket(b, o[2]); F.addSide(b, o[3]);
  F.addType(b, o[4]); F.addTif(b, o[5]); F.addStpAct(b, o[6]); F.addStpId(b, o[7]); F.addFinishAs(b, o[8]);
  F.addPrice(b, o[9]); F.addAmount(b, o[10]); F.addIceberg(b, o[11]); F.addLeft(b, o[12]); F.addFilledLots(b, o[13]);
  F.addFilledNotional(b, o[14]); F.addCreateTime(b, o[15]); F.addUpdateTime(b, o[16]); F.addText(b, o[17]);
  F.addFee(b, o[18]); F.addAmendText(b, o[19]); F.addAccount(b, o[20]);
  return F.endOrderStoreSnapshot(b);
}

function buildTrades(b: Builder, s: TradeLogState): number {
  const F = FbTradeLogSnapshot;
  const o = [
    vec(b, s.marketSeq), vec(b, s.time), vec(b, s.market), vec(b, s.takerOrder), vec(b, s.makerOrder),
    vec(b, s.takerUid), vec(b, s.makerUid), vec(b, s.takerSide), vec(b, s.price), vec(b, s.lots), vec(b, s.seq),
    amounts(b, s.takerFee), amounts(b, s.makerFee),
  ] as const;
  F.startTradeLogSnapshot(b);
  F.addCount(b, s.count); F.addMarketSeq(b, o[0]); F.addTime(b, o[1]); F.addMarket(b, o[2]); F.addTakerOrder(b, o[3]);
  F.addMakerOrder(b, o[4]); F.addTakerUid(b, o[5]); F.addMakerUid(b, o[6]); F.addTakerSide(b, o[7]); F.addPrice(b, o[8]);
  F.addLots(b, o[9]); F.addSeq(b, o[10]); F.addTakerFee(b, o[11]); F.addMakerFee(b, o[12]);
  return F.endTradeLogSnapshot(b);
}

const buildBook = (b: Builder, s: BookState): number => FbBookSnapshot.createBookSnapshot(b, vec(b, s.id), vec(b, s.user),
  vec(b, s.stp), vec(b, s.side), vec(b, s.tif), vec(b, s.act), vec(b, s.price), vec(b, s.amount), vec(b, s.left),
  vec(b, s.visible), vec(b, s.iceberg));

/** Bytes a snapshot of this many rows needs, roughly (sizes the builder once). */
function estimate(d: SnapshotData): number {
  const rows = d.exchange.orders.id.length * 140 + d.exchange.trades.time.length * 90 + d.exchange.ledger.recUid.length * 60
    + d.exchange.ledger.bookTime.length * 50 + d.books.reduce((n, k) => n + k.id.length * 75, 0);
  return Math.min(2 ** 31 - 1, 4096 + d.definitionJson.length * 2 + Math.ceil(rows * 1.1));
}

/** Encodes a snapshot payload. Not hot; runs on a snapshot worker. @allocates the payload */
export function encodeSnapshot(d: SnapshotData): Uint8Array {
  invariant(d.formatVersion >>> 0 === d.formatVersion, 'snapshot format version outside uint32');
  const b = new Builder(estimate(d));
  const ledger = buildLedger(b, d.exchange.ledger);
  const orders = buildOrders(b, d.exchange.orders);
  const trades = buildTrades(b, d.exchange.trades);
  const books = FbSnapshot.createBooksVector(b, d.books.map((k) => buildBook(b, k)));
  const def = b.createString(d.definitionJson);
  const unified = d.exchange.unified === undefined ? 0 : b.createString(JSON.stringify(d.exchange.unified));
  const records = d.exchange.records === undefined || d.exchange.records.length === 0 ? 0 : b.createString(JSON.stringify(d.exchange.records));
  const futures = d.exchange.futures === undefined ? 0 : b.createString(JSON.stringify(d.exchange.futures));
  const options = d.exchange.options === undefined ? 0 : b.createString(JSON.stringify(d.exchange.options));
  FbSnapshot.startSnapshot(b);
  FbSnapshot.addFormatVersion(b, d.formatVersion);
  FbSnapshot.addSeq(b, d.seq);
  FbSnapshot.addCreatedTime(b, d.createdTime);
  FbSnapshot.addLastOrderId(b, d.exchange.lastOrderId);
  FbSnapshot.addDefinitionJson(b, def);
  FbSnapshot.addLedger(b, ledger);
  FbSnapshot.addOrders(b, orders);
  FbSnapshot.addTrades(b, trades);
  FbSnapshot.addBooks(b, books);
  if (unified !== 0) FbSnapshot.addUnifiedJson(b, unified);
  if (records !== 0) FbSnapshot.addRecordsJson(b, records);
  if (futures !== 0) FbSnapshot.addFuturesJson(b, futures);
  if (options !== 0) FbSnapshot.addOptionsJson(b, options);
  b.finish(FbSnapshot.endSnapshot(b));
  return b.asUint8Array();
}

const F64 = new Float64Array(0);
const I32 = new Int32Array(0);
const U8 = new Uint8Array(0);
const f64 = (a: Float64Array | null): Float64Array => a ?? F64;
const i32 = (a: Int32Array | null): Int32Array => a ?? I32;
const u8 = (a: Uint8Array | null): Uint8Array => a ?? U8;
const str = (v: string | Uint8Array | null): string => (typeof v === 'string' ? v : '');

function readAmounts(c: FbAmountColumn | null): AmountColumn {
  if (c === null) return { num: F64, wideIndex: I32, wideText: [] };
  const wideText: string[] = [];
  for (let k = 0; k < c.wideTextLength(); k++) wideText.push(str(c.wideText(k)));
  return { num: f64(c.numArray()), wideIndex: i32(c.wideIndexArray()), wideText };
}

function readTexts(c: FbTextColumn | null): TextColumn {
  if (c === null) return { index: I32, text: [] };
  const text: string[] = [];
  for (let k = 0; k < c.textLength(); k++) text.push(str(c.text(k)));
  return { index: i32(c.indexArray()), text };
}

function readLedger(l: FbLedgerSnapshot): LedgerState {
  const currencies = [];
  for (let i = 0; i < l.currenciesLength(); i++) {
    const t = l.currencies(i);
    currencies.push({ supply: str(t?.supply() ?? null), totalIn: str(t?.totalIn() ?? null), totalOut: str(t?.totalOut() ?? null),
      clearing: t?.clearing() ?? '0' });
  }
  return {
    currencies, userUid: f64(l.userUidArray()), userMain: f64(l.userMainArray()), recUid: f64(l.recUidArray()),
    recKind: u8(l.recKindArray()), recSub: i32(l.recSubArray()), recCur: i32(l.recCurArray()),
    available: readAmounts(l.available()), locked: readAmounts(l.locked()), borrowed: readAmounts(l.borrowed()),
    interest: readAmounts(l.interest()), holdOrder: f64(l.holdOrderArray()), holdMarket: i32(l.holdMarketArray()),
    holdSide: u8(l.holdSideArray()), holdType: u8(l.holdTypeArray()), holdRec: i32(l.holdRecArray()),
    holdRecv: i32(l.holdRecvArray()), holdRemaining: readAmounts(l.holdRemaining()), bookLastId: l.bookLastId(),
    bookTime: f64(l.bookTimeArray()), bookRec: i32(l.bookRecArray()), bookType: u8(l.bookTypeArray()),
    bookChange: readAmounts(l.bookChange()), bookBalance: readAmounts(l.bookBalance()), bookText: readTexts(l.bookText()),
    bookRef: f64(l.bookRefArray()),
  };
}

function readOrders(o: FbOrderStoreSnapshot): OrderStoreState {
  return {
    openCount: o.openCount(), id: f64(o.idArray()), uid: f64(o.uidArray()), market: i32(o.marketArray()),
    side: u8(o.sideArray()), type: u8(o.typeArray()), tif: u8(o.tifArray()), stpAct: u8(o.stpActArray()),
    stpId: i32(o.stpIdArray()), finishAs: u8(o.finishAsArray()), price: f64(o.priceArray()), amount: f64(o.amountArray()),
    iceberg: f64(o.icebergArray()), left: f64(o.leftArray()), filledLots: f64(o.filledLotsArray()),
    filledNotional: f64(o.filledNotionalArray()), createTime: f64(o.createTimeArray()),
    updateTime: f64(o.updateTimeArray()), text: readTexts(o.text()), fee: readAmounts(o.fee()),
    amendText: readTexts(o.amendText()), account: u8(o.accountArray()),
  };
}

function readTrades(t: FbTradeLogSnapshot): TradeLogState {
  return {
    count: t.count(), marketSeq: f64(t.marketSeqArray()), time: f64(t.timeArray()), market: i32(t.marketArray()),
    takerOrder: f64(t.takerOrderArray()), makerOrder: f64(t.makerOrderArray()), takerUid: f64(t.takerUidArray()),
    makerUid: f64(t.makerUidArray()), takerSide: u8(t.takerSideArray()), price: f64(t.priceArray()),
    lots: f64(t.lotsArray()), seq: f64(t.seqArray()), takerFee: readAmounts(t.takerFee()), makerFee: readAmounts(t.makerFee()),
  };
}

const readBook = (k: FbBookSnapshot): BookState => ({
  id: f64(k.idArray()), user: f64(k.userArray()), stp: i32(k.stpArray()), side: u8(k.sideArray()), tif: u8(k.tifArray()),
  act: u8(k.actArray()), price: f64(k.priceArray()), amount: f64(k.amountArray()), left: f64(k.leftArray()),
  visible: f64(k.visibleArray()), iceberg: f64(k.icebergArray()),
});

/**
 * Decodes a snapshot payload. Numeric columns are views into `bytes` (copied once first when `bytes` is not
 * 8-byte aligned). Throws InvariantError when a component table is missing. @allocates strings
 */
export function decodeSnapshot(bytes: Uint8Array): SnapshotData {
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const s = FbSnapshot.getRootAsSnapshot(new ByteBuffer(aligned));
  const ledger = s.ledger();
  const orders = s.orders();
  const trades = s.trades();
  invariant(ledger !== null && orders !== null && trades !== null, 'snapshot: missing ledger, orders or trades');
  const books: BookState[] = [];
  for (let i = 0; i < s.booksLength(); i++) {
    const k = s.books(i);
    invariant(k !== null, 'snapshot: missing book');
    books.push(readBook(k));
  }
  return {
    formatVersion: s.formatVersion(), seq: s.seq(), createdTime: s.createdTime(), definitionJson: str(s.definitionJson()),
    exchange: {
      ledger: readLedger(ledger), orders: readOrders(orders), trades: readTrades(trades), lastOrderId: s.lastOrderId(),
      ...(s.unifiedJson() === null ? {} : { unified: JSON.parse(s.unifiedJson()!) as UnifiedStateData }),
      ...(s.recordsJson() === null ? {} : { records: JSON.parse(s.recordsJson()!) as RecordTableData }),
      ...(s.futuresJson() === null ? {} : { futures: JSON.parse(s.futuresJson()!) as FuturesStateData }),
      ...(s.optionsJson() === null ? {} : { options: JSON.parse(s.optionsJson()!) as OptionsStateData }),
    },
    books,
  };
}
