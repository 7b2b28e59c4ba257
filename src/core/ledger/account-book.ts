/**
 * The account book: every change of an account's total (available + locked), Gate-style
 * `{ id, time, currency, change, balance, type, text }`, where balance is the total after the change.
 *
 * Holds and releases move funds between available and locked without changing the total, so they write
 * nothing here. Entries live in columns of a ring buffer of `capacity` entries: when full, the oldest entry
 * is overwritten (retention, not history; ids keep counting). Ids are 1, 2, 3, … in write order.
 *
 * Costs: `append` writes scalars and references into preallocated columns (no allocation for narrow
 * currencies; a wide entry stores the BigInt values it is given). Queries allocate their result.
 */
import type { Amount } from './amount.js';

/** Entry types, with Gate-like names in BOOK_TYPE_NAMES. */
export const BookType = {
  Deposit: 1,
  Withdraw: 2,
  TransferIn: 3,
  TransferOut: 4,
  /** Trade: the currency an order paid (negative) or bought (positive). */
  OrderFill: 5,
  /** Trading fee paid by an order (negative). */
  OrderFee: 6,
  /** Trading fee received by the platform fee account (positive). */
  FeeIncome: 7,
  /** Administrative correction (simulator control plane). */
  Adjust: 8,
  /** Withdrawal fee paid by the withdrawing account (negative); the fee account gets a fee_income entry. */
  WithdrawFee: 9,
} as const;
export type BookType = (typeof BookType)[keyof typeof BookType];

export const BOOK_TYPE_NAMES: Readonly<Record<BookType, string>> = {
  [BookType.Deposit]: 'deposit',
  [BookType.Withdraw]: 'withdraw',
  [BookType.TransferIn]: 'transfer_in',
  [BookType.TransferOut]: 'transfer_out',
  [BookType.OrderFill]: 'order_fill',
  [BookType.OrderFee]: 'order_fee',
  [BookType.FeeIncome]: 'fee_income',
  [BookType.Adjust]: 'adjust',
  [BookType.WithdrawFee]: 'withdraw_fee',
};

export const isBookType = (t: number): boolean => (t | 0) === t && t >= BookType.Deposit && t <= BookType.WithdrawFee;

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
