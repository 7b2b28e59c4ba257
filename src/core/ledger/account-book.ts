/**
 * The account book: every change of an account's total (available + locked), Gate-style
 * `{ id, time, currency, change, balance, type, text }`, where balance is the total after the change and type
 * one of Gate's account-book type codes.
 *
 * Holds and releases move funds between available and locked without changing the total, so they write
 * nothing here. Entries live in columns of a ring buffer of `capacity` entries: when full, the oldest entry
 * is overwritten (retention, not history; ids keep counting). Ids are 1, 2, 3, … in write order.
 *
 * Costs: `append` writes scalars and references into preallocated columns (no allocation for narrow
 * currencies; a wide entry stores the BigInt values it is given). Queries allocate their result.
 */
import { AccountKind } from './account-kinds.js';
import type { Amount } from './amount.js';

/**
 * Entry types, named in BOOK_TYPE_NAMES with Gate's documented account-book type codes (Gate's API docs,
 * "AccountBook type"). A transfer between a user's own accounts is named after the account other than spot
 * (`margin_*` isolated margin, `cross_*` cross margin, `perp_*` futures, `delivery_*`, `options_*`) with `_in` on
 * the entry of the account that received the funds and `_out` on the one that sent them (Gate's example: a
 * spot entry of +1.03 typed `margin_in`). Numbers are stored in the book (and snapshots): never renumber.
 */
export const BookType = {
  Deposit: 1,
  /** A withdrawal: the whole amount, its fee included, leaves the account (one entry). */
  Withdraw: 2,
  /** A transfer whose counterpart is unknown (snapshots written before typed transfers): `unknown`. */
  TransferIn: 3,
  TransferOut: 4,
  /** Trade: the currency an order paid (negative) or bought (positive). */
  OrderFill: 5,
  /** Trading fee paid by an order (negative). */
  OrderFee: 6,
  /** A fee received by the platform fee account (positive): `system_fee`. */
  FeeIncome: 7,
  /** Administrative correction (simulator control plane): `unknown`. */
  Adjust: 8,
  /** A withdrawal fee booked apart (snapshots written before one-entry withdrawals): `withdraw`. */
  WithdrawFee: 9,
  MarginIn: 10,
  MarginOut: 11,
  CrossIn: 12,
  CrossOut: 13,
  PerpIn: 14,
  PerpOut: 15,
  DeliveryIn: 16,
  DeliveryOut: 17,
  OptionsIn: 18,
  OptionsOut: 19,
  /** Between a main account and its sub-accounts (either side). */
  SubaccountTransfer: 20,
  /** A UID push: the sender's entry, and the receiver's. */
  PushSent: 21,
  PushReceived: 22,
  /** Unified-account loans (and the lending pool's side of every loan movement). */
  Borrow: 23,
  Repay: 24,
  MarginBorrow: 25,
  MarginRepay: 26,
  MarginInterest: 27,
  CrossBorrow: 28,
  CrossRepay: 29,
  /** Interest paid by a unified or cross-margin loan. */
  Interest: 30,
  /** Futures: realised PnL of a position (Gate's futures `pnl`). */
  FuturesPnl: 31,
  /** Futures: a trading fee paid (negative) or a maker rebate (positive) (Gate's futures `fee`). */
  FuturesFee: 32,
  /** Futures: a funding payment (Gate's futures `fund`; text = the contract). */
  FuturesFund: 33,
  /** The insurance fund's side of a funding payment or a liquidation's remainder. */
  Insurance: 34,
} as const;
export type BookType = (typeof BookType)[keyof typeof BookType];

export const BOOK_TYPE_NAMES: Readonly<Record<BookType, string>> = {
  [BookType.Deposit]: 'deposit',
  [BookType.Withdraw]: 'withdraw',
  [BookType.TransferIn]: 'unknown',
  [BookType.TransferOut]: 'unknown',
  [BookType.OrderFill]: 'order_fill',
  [BookType.OrderFee]: 'order_fee',
  [BookType.FeeIncome]: 'system_fee',
  [BookType.Adjust]: 'unknown',
  [BookType.WithdrawFee]: 'withdraw',
  [BookType.MarginIn]: 'margin_in',
  [BookType.MarginOut]: 'margin_out',
  [BookType.CrossIn]: 'cross_in',
  [BookType.CrossOut]: 'cross_out',
  [BookType.PerpIn]: 'perp_in',
  [BookType.PerpOut]: 'perp_out',
  [BookType.DeliveryIn]: 'delivery_in',
  [BookType.DeliveryOut]: 'delivery_out',
  [BookType.OptionsIn]: 'options_in',
  [BookType.OptionsOut]: 'options_out',
  [BookType.SubaccountTransfer]: 'subaccount_trf',
  [BookType.PushSent]: 'push_sent',
  [BookType.PushReceived]: 'push_rcvd',
  [BookType.Borrow]: 'borrow',
  [BookType.Repay]: 'repay',
  [BookType.MarginBorrow]: 'margin_borrow',
  [BookType.MarginRepay]: 'margin_repay',
  [BookType.MarginInterest]: 'margin_interest_out',
  [BookType.CrossBorrow]: 'cross_borrow',
  [BookType.CrossRepay]: 'cross_repay',
  [BookType.Interest]: 'interest_out',
  [BookType.FuturesPnl]: 'pnl',
  [BookType.FuturesFee]: 'fee',
  [BookType.FuturesFund]: 'fund',
  [BookType.Insurance]: 'insurance',
};

export const isBookType = (t: number): boolean => (t | 0) === t && t >= BookType.Deposit && t <= BookType.Insurance;

/** The types an entry filter `name` selects (several numbers can share a Gate name); empty for an unknown name. */
export function bookTypesNamed(name: string): BookType[] {
  const out: BookType[] = [];
  for (const [k, v] of Object.entries(BOOK_TYPE_NAMES)) if (v === name) out.push(Number(k) as BookType);
  return out;
}

/** What a Transfer moves funds for (the command's `side`): the entries' types follow from it. */
export const TransferPurpose = {
  /** Between a user's accounts, or between a main account and its sub-accounts. */
  Transfer: 0,
  /** A UID push between main accounts. */
  Push: 1,
  /** A withdrawal to an address the platform issued to another user: a withdraw and a deposit entry. */
  InternalWithdrawal: 2,
} as const;
export const isTransferPurpose = (v: number): boolean => v === 0 || v === 1 || v === 2;

/** Entry types of one account kind's business line: [funds in, funds out], by AccountKind. */
const KIND_TYPES: Readonly<Record<number, readonly [BookType, BookType]>> = {
  [AccountKind.Margin]: [BookType.MarginIn, BookType.MarginOut],
  [AccountKind.CrossMargin]: [BookType.CrossIn, BookType.CrossOut],
  [AccountKind.Futures]: [BookType.PerpIn, BookType.PerpOut],
  [AccountKind.Delivery]: [BookType.DeliveryIn, BookType.DeliveryOut],
  [AccountKind.Options]: [BookType.OptionsIn, BookType.OptionsOut],
};

/**
 * The [sender's, receiver's] entry types of a transfer of `purpose` from (fromUid, fromKind) to (toUid,
 * toKind). Between different users: the purpose's pair (sub-account transfers for a plain transfer); between
 * one user's accounts: the business line of the account other than spot.
 */
export function transferBookTypes(fromUid: number, fromKind: number, toUid: number, toKind: number, purpose: number): [BookType, BookType] {
  if (purpose === TransferPurpose.Push) return [BookType.PushSent, BookType.PushReceived];
  if (purpose === TransferPurpose.InternalWithdrawal) return [BookType.Withdraw, BookType.Deposit];
  if (fromUid !== toUid) return [BookType.SubaccountTransfer, BookType.SubaccountTransfer];
  const line = KIND_TYPES[fromKind === AccountKind.Spot ? toKind : fromKind];
  return line === undefined ? [BookType.TransferOut, BookType.TransferIn] : [line[1], line[0]];
}

export class AccountBook {
  readonly capacity: number;
  /** Id of the newest entry (0 when none was ever written). */
  lastId = 0;
  readonly time: Float64Array;
  /** Balance record of the entry (gives account and currency). */
  readonly rec: Int32Array;
  readonly type: Uint8Array;
  readonly #change: Float64Array;
  readonly #balance: Float64Array;
  readonly #wChange: (bigint | undefined)[];
  readonly #wBalance: (bigint | undefined)[];
  readonly text: string[];
  /** Order id of fill and fee entries (0 otherwise); shown as the entry's text, rendered only when read. */
  readonly ref: Float64Array;

  /** @allocates the columns, once. */
  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`accountBookCapacity must be an integer ≥ 0, got ${capacity}`);
    this.capacity = capacity;
    this.time = new Float64Array(capacity);
    this.rec = new Int32Array(capacity);
    this.type = new Uint8Array(capacity);
    this.#change = new Float64Array(capacity);
    this.#balance = new Float64Array(capacity);
    this.#wChange = new Array<bigint | undefined>(capacity).fill(undefined);
    this.#wBalance = new Array<bigint | undefined>(capacity).fill(undefined);
    this.text = new Array<string>(capacity).fill('');
    this.ref = new Float64Array(capacity);
  }

  /** Entries currently retained. */
  get size(): number {
    return Math.min(this.lastId, this.capacity);
  }

  /** Id of the oldest retained entry (lastId + 1 when none). */
  get firstId(): number {
    return this.lastId - this.size + 1;
  }

  /** Appends one entry (text is stored by reference; `ref` is an order id or 0). */
  append(time: number, rec: number, type: BookType, change: Amount, balance: Amount, text: string, ref: number): void {
    const id = ++this.lastId;
    if (this.capacity === 0) return;
    const s = (id - 1) % this.capacity;
    this.time[s] = time;
    this.rec[s] = rec;
    this.type[s] = type;
    this.text[s] = text;
    this.ref[s] = ref;
    if (typeof change === 'number') {
      this.#change[s] = change;
      this.#balance[s] = balance as number;
      this.#wChange[s] = undefined;
      this.#wBalance[s] = undefined;
    } else {
      this.#wChange[s] = change;
      this.#wBalance[s] = balance as bigint;
    }
  }

  /** Column slot of a retained entry id. */
  slotOf(id: number): number {
    return (id - 1) % this.capacity;
  }

  changeAt(slot: number): Amount {
    return this.#wChange[slot] ?? this.#change[slot]!;
  }

  balanceAt(slot: number): Amount {
    return this.#wBalance[slot] ?? this.#balance[slot]!;
  }
}
