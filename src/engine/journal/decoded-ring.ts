/**
 * What a journal decode worker (decode.worker.ts) hands the replaying thread: decoded records in an SPSC ring
 * (ring/spsc-ring.ts) of float64 slots, so the replaying thread applies commands without a CRC pass or a
 * FlatBuffers decode of its own (pipelined-reader.ts).
 *
 * Record slot, DECODED_SLOT_F64 = 24 fields (192 bytes, three cache lines); every value is a safe integer or a
 * small enum, exact in a double:
 *
 *   field  0 D_KIND      SlotKind.Record
 *          1 D_SEQ       2 D_TIME      3 D_UID      4 D_ORDER    5 D_PRICE    6 D_AMOUNT   7 D_ICEBERG   8 D_TO_UID
 *          9 D_MARKET   10 D_CURRENCY 11 D_SUB     12 D_TO_SUB  13 D_TYPE    14 D_SIDE    15 D_OTYPE    16 D_TIF
 *         17 D_STP_ACT  18 D_AKIND    19 D_TO_KIND
 *         20 D_TEXT_LEN   UTF-16 code units of `text`     21 D_RECORD_LEN  UTF-16 code units of `record`
 *         22 D_POS        file offset after the record (progress)
 *
 * A record with text or a record string is followed by ⌈(text + record units) / UNITS_PER_SLOT⌉ continuation
 * slots holding those code units (text first) through a Uint16 view of the same bytes; a continuation slot
 * follows its record slot in sequence order (its slot index may wrap to the ring's start).
 *
 * End slot (the last one the worker publishes, then it closes the ring):
 *
 *   field  0 D_KIND = SlotKind.End   1 E_RECORDS   2 E_VALID_BYTES   3 E_FILE_BYTES   4 E_REASON (DEFECT_CODES index, −1: none)
 *
 * Allocation: none per record without strings; a record with strings allocates them on the reading side.
 */
import type { Command } from '../../core/command.js';
import { HEADER_BYTES } from '../ring/layout.js';
import type { SpscRing } from '../ring/spsc-ring.js';
import type { JournalDefect } from './format.js';

export const DECODED_SLOT_F64 = 24;
/** Ring geometry word count of a slot (SpscRing counts Int32 words). */
export const DECODED_SLOT_WORDS = DECODED_SLOT_F64 * 2;
/** UTF-16 code units a continuation slot holds. */
export const UNITS_PER_SLOT = DECODED_SLOT_F64 * 4;

export const SlotKind = { Record: 1, End: 2 } as const;

export const D_KIND = 0;
export const D_SEQ = 1;
export const D_TIME = 2;
export const D_UID = 3;
export const D_ORDER = 4;
export const D_PRICE = 5;
export const D_AMOUNT = 6;
export const D_ICEBERG = 7;
export const D_TO_UID = 8;
export const D_MARKET = 9;
export const D_CURRENCY = 10;
export const D_SUB = 11;
export const D_TO_SUB = 12;
export const D_TYPE = 13;
export const D_SIDE = 14;
export const D_OTYPE = 15;
export const D_TIF = 16;
export const D_STP_ACT = 17;
export const D_AKIND = 18;
export const D_TO_KIND = 19;
export const D_TEXT_LEN = 20;
export const D_RECORD_LEN = 21;
export const D_POS = 22;

export const E_RECORDS = 1;
export const E_VALID_BYTES = 2;
export const E_FILE_BYTES = 3;
export const E_REASON = 4;

/** JournalDefect values by their code in E_REASON. */
export const DEFECT_CODES: readonly JournalDefect[] = ['bad-length', 'checksum', 'undecodable', 'torn', 'group'];

/** Slots a record of `c` takes: its record slot and the continuation slots of its strings. */
export function slotsFor(c: Command): number {
  const units = c.text.length + c.record.length;
  return 1 + (units === 0 ? 0 : Math.ceil(units / UNITS_PER_SLOT));
}

/** A Uint16 view of `ring`'s slot region (the continuation slots' code units). */
export function unitsView(ring: SpscRing): Uint16Array {
  return new Uint16Array(ring.sab, HEADER_BYTES, ring.capacity * ring.slotWords * 2);
}

/** Producer. Writes `c` into the `slotsFor(c)` slots claimed from `first`; `pos` is the file offset after it. */
export function writeDecoded(ring: SpscRing, units: Uint16Array, first: number, c: Command, pos: number): void {
  const f = ring.slots64;
  const at = ring.f64Offset(first);
  f[at + D_KIND] = SlotKind.Record;
  f[at + D_SEQ] = c.seq; f[at + D_TIME] = c.time; f[at + D_UID] = c.uid; f[at + D_ORDER] = c.orderId;
  f[at + D_PRICE] = c.price; f[at + D_AMOUNT] = c.amount; f[at + D_ICEBERG] = c.iceberg; f[at + D_TO_UID] = c.toUid;
  f[at + D_MARKET] = c.market; f[at + D_CURRENCY] = c.currency; f[at + D_SUB] = c.sub; f[at + D_TO_SUB] = c.toSub;
  f[at + D_TYPE] = c.type; f[at + D_SIDE] = c.side; f[at + D_OTYPE] = c.orderType; f[at + D_TIF] = c.tif;
  f[at + D_STP_ACT] = c.stpAct; f[at + D_AKIND] = c.kind; f[at + D_TO_KIND] = c.toKind;
  f[at + D_TEXT_LEN] = c.text.length; f[at + D_RECORD_LEN] = c.record.length; f[at + D_POS] = pos;
  let u = 0;
  const put = (s: string): void => {
    for (let i = 0; i < s.length; i++, u++) units[unitIndex(ring, first, u)] = s.charCodeAt(i);
  };
  if (c.text.length > 0) put(c.text);
  if (c.record.length > 0) put(c.record);
}

/** Producer. Writes the end slot at `seq`. */
export function writeEnd(ring: SpscRing, seq: number, records: number, validBytes: number, fileBytes: number, reason: JournalDefect | undefined): void {
  const f = ring.slots64;
  const at = ring.f64Offset(seq);
  f[at + D_KIND] = SlotKind.End;
  f[at + E_RECORDS] = records; f[at + E_VALID_BYTES] = validBytes; f[at + E_FILE_BYTES] = fileBytes;
  f[at + E_REASON] = reason === undefined ? -1 : DEFECT_CODES.indexOf(reason);
}

/** Consumer. Reads the record whose slot is `seq` into `c` (every field); returns the slots it took. */
export function readDecoded(ring: SpscRing, units: Uint16Array, seq: number, c: Command): number {
  const f = ring.slots64;
  const at = ring.f64Offset(seq);
  c.seq = f[at + D_SEQ]!; c.time = f[at + D_TIME]!; c.uid = f[at + D_UID]!; c.orderId = f[at + D_ORDER]!;
  c.price = f[at + D_PRICE]!; c.amount = f[at + D_AMOUNT]!; c.iceberg = f[at + D_ICEBERG]!; c.toUid = f[at + D_TO_UID]!;
  c.market = f[at + D_MARKET]!; c.currency = f[at + D_CURRENCY]!; c.sub = f[at + D_SUB]!; c.toSub = f[at + D_TO_SUB]!;
  c.type = f[at + D_TYPE]!; c.side = f[at + D_SIDE]!; c.orderType = f[at + D_OTYPE]!; c.tif = f[at + D_TIF]!;
  c.stpAct = f[at + D_STP_ACT]!; c.kind = f[at + D_AKIND]!; c.toKind = f[at + D_TO_KIND]!;
  const textLen = f[at + D_TEXT_LEN]!;
  const recordLen = f[at + D_RECORD_LEN]!;
  c.text = textLen === 0 ? '' : stringAt(ring, units, seq, 0, textLen);
  c.record = recordLen === 0 ? '' : stringAt(ring, units, seq, textLen, recordLen);
  const total = textLen + recordLen;
  return 1 + (total === 0 ? 0 : Math.ceil(total / UNITS_PER_SLOT));
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
