/**
 * What travels between the ledger thread and a market-shard worker: one SPSC ring each way, slots of float64
 * fields (every value is a safe integer or a small enum, exact in a double).
 *
 * Command ring (ledger → shard), CMD_SLOT_F64 = 16 fields (128 bytes, two cache lines):
 *
 *   field  0 C_SEQ      global sequence of the command
 *          1 C_TYPE     CommandType, or a control type (CTRL_HASH, CTRL_STOP, CTRL_CRASH, CTRL_CAPTURE)
 *          2 C_MARKET   market index
 *          3 C_ORDER    order id          4 C_UID     owner
 *          5 C_SIDE     side / cancel-all side        6 C_OTYPE   order type       7 C_TIF  time in force
 *          8 C_PRICE    ticks             9 C_AMOUNT  lots or quote budget        10 C_ICEBERG lots
 *         11 C_STP_ID   STP group        12 C_STP_ACT  STP act                13–15 unused
 *
 * Event ring (shard → ledger), EVENT_SLOT_F64 = 10 fields (80 bytes): one slot per book event of a command,
 * then one END slot carrying the command's result code. Results come back in command order.
 *
 *   field  0 E_SEQ  command sequence   1 E_KIND  EventKind (1–4) or E_END
 *          2 E_ORDER  3 E_USER  4 E_MAKER  5 E_MAKER_USER  6 E_PRICE  7 E_LOTS  8 E_CODE (event code; END: result)
 */
import type { Command } from '../../core/command.js';
import type { BookEvents } from '../../core/matching/book-events.js';

export const CMD_SLOT_F64 = 16;
export const C_SEQ = 0;
export const C_TYPE = 1;
export const C_MARKET = 2;
export const C_ORDER = 3;
export const C_UID = 4;
export const C_SIDE = 5;
export const C_OTYPE = 6;
export const C_TIF = 7;
export const C_PRICE = 8;
export const C_AMOUNT = 9;
export const C_ICEBERG = 10;
export const C_STP_ID = 11;
export const C_STP_ACT = 12;

/** Control: reply with every book's state hash (through the worker's message port), in command order. */
export const CTRL_HASH = 101;
/** Control: stop after everything before it. */
export const CTRL_STOP = 102;
/**
 * TEST ONLY (fault injection): the worker throws when it reads this, after applying everything before it but
 * before publishing that batch's results, so the thread dies mid-stream as an uncaught error would kill it.
 * Sent only by `ThreadedEngine.crashShardForTesting`; production code never writes it.
 */
export const CTRL_CRASH = 103;
/**
 * Control: reply with every book's resting orders (snapshot/capture.ts BookState, through the worker's message
 * port, buffers transferred), in command order. Sent only when nothing is in flight.
 */
export const CTRL_CAPTURE = 104;

export const EVENT_SLOT_F64 = 10;
export const E_SEQ = 0;
export const E_KIND = 1;
export const E_ORDER = 2;
export const E_USER = 3;
export const E_MAKER = 4;
export const E_MAKER_USER = 5;
export const E_PRICE = 6;
export const E_LOTS = 7;
export const E_CODE = 8;
/** E_KIND of the slot that ends a command's events; E_CODE holds its result code. */
export const E_END = 9;

/** Writes the book-bound fields of `c` into the command slot at `at` of `f64`. */
export function writeCommand(f64: Float64Array, at: number, c: Command): void {
  f64[at + C_SEQ] = c.seq; f64[at + C_TYPE] = c.type; f64[at + C_MARKET] = c.market; f64[at + C_ORDER] = c.orderId;
  f64[at + C_UID] = c.uid; f64[at + C_SIDE] = c.side; f64[at + C_OTYPE] = c.orderType; f64[at + C_TIF] = c.tif;
  f64[at + C_PRICE] = c.price; f64[at + C_AMOUNT] = c.amount; f64[at + C_ICEBERG] = c.iceberg;
  f64[at + C_STP_ID] = c.stpId; f64[at + C_STP_ACT] = c.stpAct;
}

/** Reads a command slot into `c` (the fields the book needs). */
export function readCommand(f64: Float64Array, at: number, c: Command): void {
  c.seq = f64[at + C_SEQ]!; c.type = f64[at + C_TYPE]!; c.market = f64[at + C_MARKET]!; c.orderId = f64[at + C_ORDER]!;
  c.uid = f64[at + C_UID]!; c.side = f64[at + C_SIDE]!; c.orderType = f64[at + C_OTYPE]!; c.tif = f64[at + C_TIF]!;
  c.price = f64[at + C_PRICE]!; c.amount = f64[at + C_AMOUNT]!; c.iceberg = f64[at + C_ICEBERG]!;
  c.stpId = f64[at + C_STP_ID]!; c.stpAct = f64[at + C_STP_ACT]!;
}

/** Writes book event `i` of `ev` for command `seq` into the event slot at `at`. */
export function writeEvent(f64: Float64Array, at: number, seq: number, ev: BookEvents, i: number): void {
  f64[at + E_SEQ] = seq; f64[at + E_KIND] = ev.kind[i]!; f64[at + E_ORDER] = ev.orderId[i]!; f64[at + E_USER] = ev.userId[i]!;
  f64[at + E_MAKER] = ev.makerOrderId[i]!; f64[at + E_MAKER_USER] = ev.makerUserId[i]!; f64[at + E_PRICE] = ev.price[i]!;
  f64[at + E_LOTS] = ev.lots[i]!; f64[at + E_CODE] = ev.code[i]!;
}

/** Writes the END slot of command `seq` with its result code. */
export function writeEnd(f64: Float64Array, at: number, seq: number, code: number): void {
  f64[at + E_SEQ] = seq; f64[at + E_KIND] = E_END; f64[at + E_CODE] = code;
}

/** Geometry shared by both sides: capacities are powers of two. */
export interface ShardRings {
  readonly commands: SharedArrayBuffer;
  readonly events: SharedArrayBuffer;
  readonly commandCapacity: number;
  readonly eventCapacity: number;
}
