/**
 * What a journal decode worker (decode.worker.ts) hands the replaying thread: decoded records in an SPSC ring
 * (ring/spsc-ring.ts), so the replaying thread applies commands without a CRC pass or a FlatBuffers decode of its
 * own (pipelined-reader.ts).
 *
 * Record slot: DECODED_SLOT_BYTES = 128 (two cache lines, the slot region being line-aligned: each record the
 * worker writes costs the reader two line transfers between cores). The first 72 bytes are nine Float64 fields
 * (values that may exceed 2^31, exact as safe integers), the other 56 bytes fourteen Int32 fields (the journal
 * schema's ints and ubytes, schemas/command.fbs, and string lengths):
 *
 *   Float64 index  0 D_SEQ    1 D_TIME   2 D_UID   3 D_ORDER   4 D_PRICE   5 D_AMOUNT   6 D_ICEBERG   7 D_TO_UID
 *                  8 D_POS    file offset after the record (progress)
 *   Int32 index   18 D_KIND (SlotKind)   19 D_MARKET   20 D_CURRENCY   21 D_SUB   22 D_TO_SUB   23 D_TYPE
 *                 24 D_SIDE   25 D_OTYPE   26 D_TIF   27 D_STP_ACT   28 D_AKIND   29 D_TO_KIND
 *                 30 D_TEXT_LEN    UTF-16 code units of `text`     31 D_RECORD_LEN  UTF-16 code units of `record`
 *
 * (Float64 indexes count from the slot's `f64Offset`, Int32 indexes from its `wordOffset`.)
 *
 * A record with text or a record string is followed by ⌈(text + record units) / UNITS_PER_SLOT⌉ continuation
 * slots holding those code units (text first) through a Uint16 view of the same bytes; a continuation slot
 * follows its record slot in sequence order (its slot index may wrap to the ring's start).
 *
 * End slot (the last one the worker publishes, then it closes the ring):
 *
 *   Int32 D_KIND = SlotKind.End   Float64 E_RECORDS, E_VALID_BYTES, E_FILE_BYTES   Int32 E_REASON (DEFECT_CODES index, −1: none)
 *
 * Allocation: none per record without strings; a record with strings allocates them on the reading side.
 */
import type { Command } from '../../core/command.js';
import { HEADER_BYTES } from '../ring/layout.js';
import type { SpscRing } from '../ring/spsc-ring.js';
import type { JournalDefect } from './format.js';

const DECODED_SLOT_BYTES = 128;
/** Ring geometry word count of a slot (SpscRing counts Int32 words). */
export const DECODED_SLOT_WORDS = DECODED_SLOT_BYTES / 4;
/** UTF-16 code units a continuation slot holds. */
const UNITS_PER_SLOT = DECODED_SLOT_BYTES / 2;

export const SlotKind = { Record: 1, End: 2 } as const;

// Float64 fields (from f64Offset).
const D_SEQ = 0;
const D_TIME = 1;
const D_UID = 2;
const D_ORDER = 3;
const D_PRICE = 4;
const D_AMOUNT = 5;
const D_ICEBERG = 6;
const D_TO_UID = 7;
const D_POS = 8;
// Int32 fields (from wordOffset), after the nine Float64 fields' 18 words.
const D_KIND = 18;
const D_MARKET = 19;
const D_CURRENCY = 20;
const D_SUB = 21;
const D_TO_SUB = 22;
const D_TYPE = 23;
const D_SIDE = 24;
const D_OTYPE = 25;
const D_TIF = 26;
const D_STP_ACT = 27;
const D_AKIND = 28;
const D_TO_KIND = 29;
const D_TEXT_LEN = 30;
const D_RECORD_LEN = 31;

// End slot: Float64 fields, and the Int32 reason.
const E_RECORDS = 0;
const E_VALID_BYTES = 1;
const E_FILE_BYTES = 2;
const E_REASON = 19;

/** JournalDefect values by their code in E_REASON. */
const DEFECT_CODES: readonly JournalDefect[] = ['bad-length', 'checksum', 'undecodable', 'torn', 'group'];

/** Slots a record of `c` takes: its record slot and the continuation slots of its strings. */
export function slotsFor(c: Command): number {
  return slotsForUnits(c.text.length + c.record.length);
}

/** Slots a record whose strings hold `units` UTF-16 code units takes (the one rule both sides of the ring follow). */
function slotsForUnits(units: number): number {
  return 1 + (units === 0 ? 0 : Math.ceil(units / UNITS_PER_SLOT));
}

/** A Uint16 view of `ring`'s slot region (the continuation slots' code units). */
export function unitsView(ring: SpscRing): Uint16Array {
  return new Uint16Array(ring.sab, HEADER_BYTES, ring.capacity * ring.slotWords * 2);
}

/** Producer. Writes `c` into the `slotsFor(c)` slots claimed from `first`; `pos` is the file offset after it. */
export function writeDecoded(ring: SpscRing, units: Uint16Array, first: number, c: Command, pos: number): void {
  const f = ring.slots64;
  const w = ring.slots32;
  const at = ring.f64Offset(first);
  const wt = ring.wordOffset(first);
  f[at + D_SEQ] = c.seq; f[at + D_TIME] = c.time; f[at + D_UID] = c.uid; f[at + D_ORDER] = c.orderId;
  f[at + D_PRICE] = c.price; f[at + D_AMOUNT] = c.amount; f[at + D_ICEBERG] = c.iceberg; f[at + D_TO_UID] = c.toUid;
  f[at + D_POS] = pos;
  w[wt + D_KIND] = SlotKind.Record;
  w[wt + D_MARKET] = c.market; w[wt + D_CURRENCY] = c.currency; w[wt + D_SUB] = c.sub; w[wt + D_TO_SUB] = c.toSub;
  w[wt + D_TYPE] = c.type; w[wt + D_SIDE] = c.side; w[wt + D_OTYPE] = c.orderType; w[wt + D_TIF] = c.tif;
  w[wt + D_STP_ACT] = c.stpAct; w[wt + D_AKIND] = c.kind; w[wt + D_TO_KIND] = c.toKind;
  w[wt + D_TEXT_LEN] = c.text.length; w[wt + D_RECORD_LEN] = c.record.length;
  if (c.text.length > 0) putUnits(ring, units, first, 0, c.text);
  if (c.record.length > 0) putUnits(ring, units, first, c.text.length, c.record);
}

/** Writes the code units of `s` as units `from`… of the strings of the record at `first`. */
function putUnits(ring: SpscRing, units: Uint16Array, first: number, from: number, s: string): void {
  for (let i = 0; i < s.length; i++) units[unitIndex(ring, first, from + i)] = s.charCodeAt(i);
}

/** Producer. Writes the end slot at `seq`. */
export function writeEnd(ring: SpscRing, seq: number, records: number, validBytes: number, fileBytes: number, reason: JournalDefect | undefined): void {
  const f = ring.slots64;
  const at = ring.f64Offset(seq);
  const wt = ring.wordOffset(seq);
  f[at + E_RECORDS] = records; f[at + E_VALID_BYTES] = validBytes; f[at + E_FILE_BYTES] = fileBytes;
  ring.slots32[wt + E_REASON] = reason === undefined ? -1 : DEFECT_CODES.indexOf(reason);
  ring.slots32[wt + D_KIND] = SlotKind.End;
}

/** Consumer. The kind of the slot at `seq` (SlotKind). */
export function slotKind(ring: SpscRing, seq: number): number {
  return ring.slots32[ring.wordOffset(seq) + D_KIND]!;
}

/** Consumer. The file offset after the record whose slot is `seq`. */
export function recordEnd(ring: SpscRing, seq: number): number {
  return ring.slots64[ring.f64Offset(seq) + D_POS]!;
}

/** What the worker's scan reported, from the end slot at `seq`. @allocates */
export function readEnd(ring: SpscRing, seq: number): { records: number; validBytes: number; fileBytes: number; reason: JournalDefect | undefined } {
  const at = ring.f64Offset(seq);
  const f = ring.slots64;
  const code = ring.slots32[ring.wordOffset(seq) + E_REASON]!;
  return { records: f[at + E_RECORDS]!, validBytes: f[at + E_VALID_BYTES]!, fileBytes: f[at + E_FILE_BYTES]!, reason: code < 0 ? undefined : DEFECT_CODES[code] };
}

/** Consumer. Reads the record whose slot is `seq` into `c` (every field); returns the slots it took. */
export function readDecoded(ring: SpscRing, units: Uint16Array, seq: number, c: Command): number {
  const f = ring.slots64;
  const w = ring.slots32;
  const at = ring.f64Offset(seq);
  const wt = ring.wordOffset(seq);
  c.seq = f[at + D_SEQ]!; c.time = f[at + D_TIME]!; c.uid = f[at + D_UID]!; c.orderId = f[at + D_ORDER]!;
  c.price = f[at + D_PRICE]!; c.amount = f[at + D_AMOUNT]!; c.iceberg = f[at + D_ICEBERG]!; c.toUid = f[at + D_TO_UID]!;
  c.market = w[wt + D_MARKET]!; c.currency = w[wt + D_CURRENCY]!; c.sub = w[wt + D_SUB]!; c.toSub = w[wt + D_TO_SUB]!;
  c.type = w[wt + D_TYPE]!; c.side = w[wt + D_SIDE]!; c.orderType = w[wt + D_OTYPE]!; c.tif = w[wt + D_TIF]!;
  c.stpAct = w[wt + D_STP_ACT]!; c.kind = w[wt + D_AKIND]!; c.toKind = w[wt + D_TO_KIND]!;
  const textLen = w[wt + D_TEXT_LEN]!;
  const recordLen = w[wt + D_RECORD_LEN]!;
  c.text = textLen === 0 ? '' : stringAt(ring, units, seq, 0, textLen);
  c.record = recordLen === 0 ? '' : stringAt(ring, units, seq, textLen, recordLen);
  return slotsForUnits(textLen + recordLen);
}

/** Index in `units` of code unit `u` of the strings of the record at `seq` (continuation slot seq + 1 + ⌊u / UNITS_PER_SLOT⌋). */
function unitIndex(ring: SpscRing, seq: number, u: number): number {
  const slot = (seq + 1 + Math.floor(u / UNITS_PER_SLOT)) | 0;
  return ring.wordOffset(slot) * 2 + (u % UNITS_PER_SLOT);
}

/** The `len` code units from unit `from` of the strings of the record at `seq`. @allocates */
function stringAt(ring: SpscRing, units: Uint16Array, seq: number, from: number, len: number): string {
  let s = '';
  for (let u = from; u < from + len;) {
    const i = unitIndex(ring, seq, u);
    const n = Math.min(from + len - u, UNITS_PER_SLOT - (u % UNITS_PER_SLOT));
    s += String.fromCharCode.apply(null, units.subarray(i, i + n) as unknown as number[]);
    u += n;
  }
  return s;
}
