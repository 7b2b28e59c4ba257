/**
 * FlatBuffers codec: engine `Command` records and journal headers ↔ bytes. The only importer of
 * `./generated` (flatc output of schemas/*.fbs); generated types never leave this module (aliased `Fb…`).
 *
 * Encoding (hot): one module-level Builder per thread, `clear()`ed before each message. The Uint8Array
 * returned by `encodeCommand` / `encodeRecord` is a view into that builder's buffer, valid only until the
 * next encode on the same builder: copy it (or write it out) first. Passing your own `builder` gives the
 * view that builder's lifetime instead. `encodeRecordInto` copies straight into a caller's buffer.
 * Cost: no allocation when `text` and `record` are empty, apart from flatbuffers' own `clear()` (one empty
 * vtable list) and the returned view; a non-empty text or record is UTF-8 encoded (@allocates). Journal
 * records carry `record`; the root Command table (rings, tests) does not.
 *
 * Ranges: enum fields are `ubyte` (0..255) and index fields `int` (32-bit signed); a value outside its
 * field's range would be silently truncated on the wire, so encoding throws InvariantError instead.
 * `double` fields carry any safe integer exactly (see schemas/README.md).
 *
 * Decoding (hot): reuses one accessor per table and one ByteBuffer per distinct backing Uint8Array
 * (kept until a different array is decoded). Decode many messages out of one buffer by passing
 * `offset`, not a fresh `subarray` each time (that allocates a ByteBuffer per call). Allocates nothing
 * except the `text` string when it is non-empty. Input must be a whole, checksummed message: the
 * accessors do not bounds-check against a truncated buffer.
 */
import { Builder, ByteBuffer } from 'flatbuffers';
import type { Command } from '../core/command.js';
import { invariant } from '../core/invariant.js';
import type { CurrencySpec } from '../core/ledger/currencies.js';
import type { MarketSpec } from '../core/market.js';
import { Command as FbCommand, CommandFields as FbCommandFields } from './generated/command_generated.js';
import {
  CurrencyDef as FbCurrencyDef,
  JournalHeader as FbJournalHeader,
  JournalRecord as FbJournalRecord,
  MarketDef as FbMarketDef,
} from './generated/journal_generated.js';

/** What a journal's header records: the definitions that give its commands meaning. */
export interface JournalHeaderData {
  readonly formatVersion: number;
  /** µs since the epoch. */
  readonly createdTime: number;
  /** In registration order: `Command.market` indexes this list. */
  readonly markets: readonly MarketSpec[];
  /** In registration order: `Command.currency` indexes this list. */
  readonly currencies: readonly CurrencySpec[];
  /** Anything else the run depends on, as JSON ('' when none). */
  readonly configJson: string;
  /** Seq of the file's first record: 1 for a journal's first segment (absent in older files: 1). */
  readonly firstSeq?: number | undefined;
}

const sharedBuilder = new Builder(512);
const commandView = new FbCommand();
const recordView = new FbJournalRecord();
const fieldsView = new FbCommandFields();
let lastBytes: Uint8Array | null = null;
let lastBb: ByteBuffer | null = null;
let lastView: DataView | null = null;

/**
 * Byte offsets of the CommandFields struct's fields (schemas/command.fbs; flatc lays a struct out at fixed
 * offsets, little-endian, 88 bytes aligned to 8). decodeRecord reads them straight through a DataView: the
 * generated accessors go through flatbuffers' ByteBuffer, whose readFloat64 assembles each double from two
 * int32 reads via a scratch array (about a third of the decode). test/protocol/codec.test.ts holds this table
 * to the generated accessors.
 */
export const COMMAND_FIELDS = {
  seq: 0, time: 8, uid: 16, orderId: 24, price: 32, amount: 40, iceberg: 48, toUid: 56,
  market: 64, currency: 68, sub: 72, toSub: 76,
  type: 80, side: 81, orderType: 82, tif: 83, stpAct: 84, kind: 85, toKind: 86,
} as const;

/** A DataView over `bytes` (the last one made, while the same array is decoded). */
function viewOf(bytes: Uint8Array): DataView {
  if (bytes !== lastBytes || lastView === null || lastView.buffer !== bytes.buffer) {
    lastView = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  return lastView;
}

const isUbyte = (v: number): boolean => (v & 0xff) === v;
const isInt = (v: number): boolean => (v | 0) === v;

function checkRanges(c: Command): void {
  invariant(
    isUbyte(c.type) && isUbyte(c.side) && isUbyte(c.orderType) && isUbyte(c.tif) && isUbyte(c.stpAct) &&
      isUbyte(c.kind) && isUbyte(c.toKind),
    'command enum field outside 0..255',
  );
  invariant(isInt(c.market) && isInt(c.currency) && isInt(c.sub) && isInt(c.toSub), 'command index field outside int32');
}

/** Writes the Command table (and its text) into `b`; returns its offset. */
function buildCommand(b: Builder, c: Command): number {
  checkRanges(c);
  const text = c.text.length === 0 ? 0 : b.createString(c.text);
  FbCommand.startCommand(b);
  FbCommand.addType(b, c.type);
  FbCommand.addSeq(b, c.seq);
  FbCommand.addTime(b, c.time);
  FbCommand.addUid(b, c.uid);
  FbCommand.addMarket(b, c.market);
  FbCommand.addOrderId(b, c.orderId);
  FbCommand.addSide(b, c.side);
  FbCommand.addOrderType(b, c.orderType);
  FbCommand.addTif(b, c.tif);
  FbCommand.addPrice(b, c.price);
  FbCommand.addAmount(b, c.amount);
  FbCommand.addIceberg(b, c.iceberg);
  FbCommand.addStpAct(b, c.stpAct);
  FbCommand.addCurrency(b, c.currency);
  FbCommand.addKind(b, c.kind);
  FbCommand.addSub(b, c.sub);
  FbCommand.addToUid(b, c.toUid);
  FbCommand.addToKind(b, c.toKind);
  FbCommand.addToSub(b, c.toSub);
  if (text !== 0) FbCommand.addText(b, text);
  return FbCommand.endCommand(b);
}

function readCommand(v: FbCommand, out: Command): void {
  out.type = v.type();
  out.seq = v.seq();
  out.time = v.time();
  out.uid = v.uid();
  out.market = v.market();
  out.orderId = v.orderId();
  out.side = v.side();
  out.orderType = v.orderType();
  out.tif = v.tif();
  out.price = v.price();
  out.amount = v.amount();
  out.iceberg = v.iceberg();
  out.stpAct = v.stpAct();
  out.currency = v.currency();
  out.kind = v.kind();
  out.sub = v.sub();
  out.toUid = v.toUid();
  out.toKind = v.toKind();
  out.toSub = v.toSub();
  const text = v.text();
  out.text = typeof text === 'string' ? text : '';
}

function byteBufferAt(bytes: Uint8Array, offset: number): ByteBuffer {
  if (bytes !== lastBytes || lastBb === null) {
    lastBb = new ByteBuffer(bytes);
    lastBytes = bytes;
    lastView = null;
  }
  lastBb.setPosition(offset);
  return lastBb;
}

/** Encodes `cmd` as a root Command table. The view is valid until the next encode on `builder`. */
export function encodeCommand(cmd: Command, builder: Builder = sharedBuilder): Uint8Array {
  builder.clear();
  builder.finish(buildCommand(builder, cmd));
  return builder.asUint8Array();
}

/** Decodes a root Command table starting at `bytes[offset]` into `out` (every field overwritten). */
export function decodeCommand(bytes: Uint8Array, out: Command, offset = 0): void {
  readCommand(FbCommand.getRootAsCommand(byteBufferAt(bytes, offset), commandView), out);
}

/**
 * Builds a JournalRecord for `c` on `b`: the numeric fields as one CommandFields struct (fixed offsets, no
 * per-field vtable work) plus the text when there is one. Returns the root offset (not yet finished).
 */
function buildRecord(b: Builder, c: Command): number {
  checkRanges(c);
  const text = c.text.length === 0 ? 0 : b.createString(c.text);
  const record = c.record.length === 0 ? 0 : b.createString(c.record);
  FbJournalRecord.startJournalRecord(b);
  FbJournalRecord.addFields(b, FbCommandFields.createCommandFields(b, c.seq, c.time, c.uid, c.orderId, c.price, c.amount,
    c.iceberg, c.toUid, c.market, c.currency, c.sub, c.toSub, c.type, c.side, c.orderType, c.tif, c.stpAct, c.kind, c.toKind));
  if (text !== 0) FbJournalRecord.addText(b, text);
  if (record !== 0) FbJournalRecord.addRecord(b, record);
  return FbJournalRecord.endJournalRecord(b);
}

/** Encodes `cmd` as a JournalRecord (a journal payload). The view is valid until the next encode on `builder`. */
export function encodeRecord(cmd: Command, builder: Builder = sharedBuilder): Uint8Array {
  builder.clear();
  builder.finish(buildRecord(builder, cmd));
  return builder.asUint8Array();
}

/**
 * Encodes `cmd` as a JournalRecord and copies it to `dst[at…]`; returns the byte length, or -1 when it
 * does not fit (nothing useful written; grow `dst` and retry). Uses the shared builder.
 */
export function encodeRecordInto(cmd: Command, dst: Uint8Array, at: number): number {
  const b = sharedBuilder;
  b.clear();
  b.finish(buildRecord(b, cmd));
  const src = b.dataBuffer().bytes();
  const start = b.dataBuffer().position();
  const n = b.offset();
  if (at + n > dst.length) return -1;
  dst.set(src.subarray(start, start + n), at);
  return n;
}

/**
 * Decodes a JournalRecord at `bytes[offset]` into `out`; false when the record holds no command. Reads the
 * CommandFields struct, or the older Command table form of a record without one.
 */
export function decodeRecord(bytes: Uint8Array, out: Command, offset = 0): boolean {
  const rec = FbJournalRecord.getRootAsJournalRecord(byteBufferAt(bytes, offset), recordView);
  const f = rec.fields(fieldsView);
  if (f === null) {
    const v = rec.command(commandView);
    if (v === null) return false;
    readCommand(v, out);
    out.record = '';
    return true;
  }
  const v = viewOf(bytes);
  const at = f.bb_pos;
  const F = COMMAND_FIELDS;
  out.seq = v.getFloat64(at + F.seq, true); out.time = v.getFloat64(at + F.time, true); out.uid = v.getFloat64(at + F.uid, true);
  out.orderId = v.getFloat64(at + F.orderId, true); out.price = v.getFloat64(at + F.price, true);
  out.amount = v.getFloat64(at + F.amount, true); out.iceberg = v.getFloat64(at + F.iceberg, true);
  out.toUid = v.getFloat64(at + F.toUid, true); out.market = v.getInt32(at + F.market, true);
  out.currency = v.getInt32(at + F.currency, true); out.sub = v.getInt32(at + F.sub, true); out.toSub = v.getInt32(at + F.toSub, true);
  out.type = v.getUint8(at + F.type); out.side = v.getUint8(at + F.side); out.orderType = v.getUint8(at + F.orderType);
  out.tif = v.getUint8(at + F.tif); out.stpAct = v.getUint8(at + F.stpAct); out.kind = v.getUint8(at + F.kind);
  out.toKind = v.getUint8(at + F.toKind);
  const text = rec.text();
  out.text = typeof text === 'string' ? text : '';
  const record = rec.record();
  out.record = typeof record === 'string' ? record : '';
  return true;
}

const optString = (b: Builder, s: string | undefined): number => (s === undefined ? 0 : b.createString(s));

/** Encodes a journal header into a fresh array (not hot). @allocates */
export function encodeHeader(h: JournalHeaderData): Uint8Array {
  const b = new Builder(1024);
  const markets = h.markets.map((m) => {
    const id = b.createString(m.id);
    const base = b.createString(m.base);
    const quote = b.createString(m.quote);
    const minBase = optString(b, m.min_base_amount);
    const minQuote = optString(b, m.min_quote_amount);
    const maxBase = optString(b, m.max_base_amount);
    const maxQuote = optString(b, m.max_quote_amount);
    invariant(isUbyte(m.precision) && isUbyte(m.amount_precision), 'market precision outside 0..255');
    return FbMarketDef.createMarketDef(b, id, base, quote, m.precision, m.amount_precision, minBase, minQuote, maxBase, maxQuote);
  });
  const currencies = h.currencies.map((c) => {
    invariant(isUbyte(c.scale), 'currency scale outside 0..255');
    return FbCurrencyDef.createCurrencyDef(b, b.createString(c.code), c.scale, optString(b, c.maxSupply));
  });
  const marketsVec = FbJournalHeader.createMarketsVector(b, markets);
  const currenciesVec = FbJournalHeader.createCurrenciesVector(b, currencies);
  const config = b.createString(h.configJson);
  invariant(h.formatVersion >>> 0 === h.formatVersion, 'format version outside uint32');
  b.finish(FbJournalHeader.createJournalHeader(b, h.formatVersion, h.createdTime, marketsVec, currenciesVec, config,
    h.firstSeq === undefined || h.firstSeq === 1 ? 0 : h.firstSeq));
  return b.asUint8Array().slice();
}

const str = (v: string | Uint8Array | null): string | undefined => (typeof v === 'string' ? v : undefined);

/** Decodes a journal header; absent optional strings stay absent. Not hot. @allocates */
export function decodeHeader(bytes: Uint8Array): JournalHeaderData {
  const h = FbJournalHeader.getRootAsJournalHeader(new ByteBuffer(bytes));
  const markets: MarketSpec[] = [];
  for (let i = 0; i < h.marketsLength(); i++) {
    const m = h.markets(i);
    if (m === null) continue;
    const spec: { -readonly [K in keyof MarketSpec]: MarketSpec[K] } = {
      id: str(m.id()) ?? '', base: str(m.base()) ?? '', quote: str(m.quote()) ?? '',
      precision: m.precision(), amount_precision: m.amountPrecision(),
    };
    const minBase = str(m.minBaseAmount());
    const minQuote = str(m.minQuoteAmount());
    const maxBase = str(m.maxBaseAmount());
    const maxQuote = str(m.maxQuoteAmount());
    if (minBase !== undefined) spec.min_base_amount = minBase;
    if (minQuote !== undefined) spec.min_quote_amount = minQuote;
    if (maxBase !== undefined) spec.max_base_amount = maxBase;
    if (maxQuote !== undefined) spec.max_quote_amount = maxQuote;
    markets.push(spec);
  }
  const currencies: CurrencySpec[] = [];
  for (let i = 0; i < h.currenciesLength(); i++) {
    const c = h.currencies(i);
    if (c === null) continue;
    const maxSupply = str(c.maxSupply());
    currencies.push(maxSupply === undefined
      ? { code: str(c.code()) ?? '', scale: c.scale() }
      : { code: str(c.code()) ?? '', scale: c.scale(), maxSupply });
  }
  return {
    formatVersion: h.formatVersion(),
    createdTime: h.createdTime(),
    markets,
    currencies,
    configJson: str(h.configJson()) ?? '',
    ...(h.firstSeq() > 1 ? { firstSeq: h.firstSeq() } : {}),
  };
}
