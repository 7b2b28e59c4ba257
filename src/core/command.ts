/**
 * Engine commands as scalar records: what the sequencer numbers, the journal stores, rings carry and the
 * state folds over. State = fold(commands in sequence order); nothing else enters the core.
 *
 * One mutable `Command` object is reused per producer (no allocation per command). Every field is a number
 * (a safe integer or a small enum) except `text`, the client's order label, which only the journal and the
 * order store read (never a ring).
 *
 * Fields by type (others are 0):
 *
 *   type         uid    market  orderId      side  orderType tif  price  amount            iceberg stpAct currency  kind sub  toUid toKind toSub
 *   PlaceOrder   owner  index   (assigned)   •     •         •    ticks  lots / budget     lots    •      -         acct •    -     flags  -
 *   AmendOrder   owner  index   •            -     -         -    ticks  lots (0 = keep)   -       -      -         -    -    -     -      -
 *   CancelOrder  owner  index   •            -     -         -    -      -                 -       -      -         -    -    -     -      -
 *   CancelAll    owner  index   -            0/•   -         -    -      -                 -       -      -         -    -    -     -      -
 *   Credit       user   -       -            -     -         -    -      units             -       -      index     •    •    -     -      -
 *   Debit        user   -       -            -     -         -    -      units             -       -      index     •    •    -     -      -
 *   Transfer     from   -       -            purp. -         -    -      units             -       -      index     •    •    •     •      •
 *   WithdrawHold    owner  -    withdrawal   -     -         -    -      units (fee incl.) -       -      index     -    -    -     -      -
 *   WithdrawSettle  owner  -    withdrawal   -     -         -    -      fee units         -       -      -         -    -    -     -      -
 *   WithdrawRelease owner  -    withdrawal   -     -         -    -      -                 -       -      -         -    -    -     -      -
 *   AddUser         user   -    -            -     -         -    -      -                 -       -      -         -    -    main  -      -
 *
 * A PlaceOrder's `kind` is the account it trades from and into (0 or Spot, Margin with `sub` = its market,
 * CrossMargin with `sub` 0, Futures with `sub` = the settle currency on a perpetual contract's market, Delivery
 * with `sub` = the settle currency on a delivery contract's market); `toKind` carries its
 * order flags (OrderFlag: auto_borrow, auto_repay, which only margin orders keep; futures/futures-orders.ts
 * FuturesFlag on a contract). Journals written before accounts had kind 0 (Spot) and no flags.
 *
 * A Transfer's `side` is its purpose (ledger/account-book.ts TransferPurpose: 0 between accounts or a main account and
 * its sub-accounts, 1 a UID push, 2 a withdrawal to another user's platform address); it decides only the account-book
 * entries' types. Journals written before it carry 0.
 *
 * The unified-account commands (UnifiedBorrow, UnifiedRepay, UnifiedAccrue, UnifiedSetMode) are laid out in
 * unified/unified-commands.ts.
 *
 * Any command may carry records of the fronts (API keys, wallet records, price triggers …) in `record`: the
 * text of a JSON object applied iff the command succeeds (records/record-table.ts). PutRecords carries
 * nothing else.
 *
 * Funds commands on a wide currency carry their units as a decimal integer in `text` (amount 0). A withdrawal's
 * hold is keyed by its numeric id (`orderId`, the digits of Gate's `w…` id); see ledger/withdraw-funds.ts.
 *
 * `seq` and `time` (µs since the epoch) are stamped by the sequencer before the command is applied.
 * `orderId` of a PlaceOrder, `stpId` and `reserved` are stamped by the exchange's first phase (R1) for the
 * book and the second phase; they are derived state, so the journal does not keep them.
 */

export const CommandType = {
  PlaceOrder: 1,
  AmendOrder: 2,
  CancelOrder: 3,
  CancelAll: 4,
  Credit: 10,
  Debit: 11,
  Transfer: 12,
  WithdrawHold: 13,
  WithdrawSettle: 14,
  WithdrawRelease: 15,
  /** Registers user `uid` (a sub-account of `toUid` when non-zero): users added at run time are in the log too. */
  AddUser: 16,
  /** Puts the records in `record` and nothing else (see records/record-table.ts). */
  PutRecords: 17,
  /** Unified account (see unified/unified-commands.ts for their fields). */
  UnifiedBorrow: 30,
  UnifiedRepay: 31,
  UnifiedAccrue: 32,
  UnifiedSetMode: 33,
  /** Isolated-margin loans (see margin/margin-commands.ts for their fields). */
  MarginBorrow: 34,
  MarginRepay: 35,
  /** Perpetual futures (see futures/futures-commands.ts for their fields). */
  FuturesSetLeverage: 40,
  FuturesUpdateMargin: 41,
  FuturesSetRiskLimit: 42,
  FuturesSetDualMode: 43,
  FuturesSetPrices: 44,
  FuturesFunding: 45,
  FuturesLiquidate: 46,
  FuturesDeleverage: 47,
  /** Delivery futures: settlement of an expired contract (futures/delivery-settlement.ts; market = the contract). */
  DeliverySettle: 48,
  /** Options (see options/options-commands.ts for their fields). */
  OptionsSetIndex: 56,
  OptionsSettle: 57,
  OptionsSetMark: 58,
  OptionsLiquidate: 59,
  OptionsSetMmp: 60,
  OptionsResetMmp: 61,
} as const;
export type CommandType = (typeof CommandType)[keyof typeof CommandType];

export class Command {
  type: number = CommandType.PlaceOrder;
  /** Global sequence number (stamped by the sequencer). */
  seq = 0;
  /** µs since the epoch (stamped by the sequencer from the injected clock). */
  time = 0;
  uid = 0;
  market = 0;
  orderId = 0;
  side = 0;
  orderType = 0;
  tif = 0;
  price = 0;
  amount = 0;
  iceberg = 0;
  stpAct = 0;
  currency = 0;
  kind = 0;
  sub = 0;
  toUid = 0;
  toKind = 0;
  toSub = 0;
  /** Client label (`t-…`) of a PlaceOrder, or '' — journal and order store only. */
  text = '';
  /** Records of the fronts as a JSON object's text, or '' — journal and the ledger thread only (never a ring). */
  record = '';
  /** STP group of the owner (stamped in R1; not journaled). */
  stpId = 0;
  /** Extra hold an amend reserved in R1, released or settled in R2 (not journaled). */
  reserved: number | bigint = 0;

  /** Resets every field to its zero value; returns this. */
  clear(): this {
    this.type = CommandType.PlaceOrder;
    this.seq = 0; this.time = 0; this.uid = 0; this.market = 0; this.orderId = 0; this.side = 0;
    this.orderType = 0; this.tif = 0; this.price = 0; this.amount = 0; this.iceberg = 0; this.stpAct = 0;
    this.currency = 0; this.kind = 0; this.sub = 0; this.toUid = 0; this.toKind = 0; this.toSub = 0;
    this.text = ''; this.record = ''; this.stpId = 0; this.reserved = 0;
    return this;
  }

  /** Copies every field of `other`; returns this. */
  copyFrom(other: Command): this {
    this.type = other.type;
    this.seq = other.seq; this.time = other.time; this.uid = other.uid; this.market = other.market;
    this.orderId = other.orderId; this.side = other.side; this.orderType = other.orderType; this.tif = other.tif;
    this.price = other.price; this.amount = other.amount; this.iceberg = other.iceberg; this.stpAct = other.stpAct;
    this.currency = other.currency; this.kind = other.kind; this.sub = other.sub; this.toUid = other.toUid;
    this.toKind = other.toKind; this.toSub = other.toSub; this.text = other.text; this.record = other.record; this.stpId = other.stpId;
    this.reserved = other.reserved;
    return this;
  }
}

/** Numeric fields in journal/ring order (text excluded). The codec and hashes iterate this list. */
export const COMMAND_NUMERIC_FIELDS = [
  'type', 'seq', 'time', 'uid', 'market', 'orderId', 'side', 'orderType', 'tif', 'price', 'amount', 'iceberg',
  'stpAct', 'currency', 'kind', 'sub', 'toUid', 'toKind', 'toSub',
] as const satisfies readonly (keyof Command)[];
