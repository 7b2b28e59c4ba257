/**
 * Business outcomes of core commands, as integers (never exceptions).
 *
 * Ranges: 0 ok · -1xxx request validation · -2xxx ledger · -3xxx matching · -4xxx HTTP front (transport,
 * authentication, limits, batch rules; never produced by the core) · -51xx wallet (withdrawals) · -6xxx unified
 * and margin · -7xxx perpetual futures · -9xxx engine.
 * The API maps every code to a Gate label and HTTP status in one catalogue (src/api/error-catalogue.ts);
 * a test keeps that catalogue complete.
 */
export const ResultCode = {
  Ok: 0,

  /** Zero, negative, non-numeric or otherwise malformed value; unknown enum value. */
  InvalidParam: -1001,
  /** More decimals than the market or currency allows. */
  InvalidPrecision: -1002,
  /** Below the market's minimum base or quote amount. */
  AmountTooLittle: -1003,
  /** Above the market's maximum base or quote amount, or beyond exact integer range. */
  AmountTooMuch: -1004,
  /** Unknown market. */
  InvalidMarket: -1005,
  /** stp_act sent by a user who belongs to no STP group. */
  StpWithoutGroup: -1006,
  /** An order with this id already rests in the book. */
  DuplicateOrderId: -1007,
  /** A required parameter is absent. */
  MissingParam: -1008,

  /** The paying account's available balance is below the amount. */
  BalanceNotEnough: -2001,
  /** No user with that uid. */
  UserNotFound: -2002,
  /** A user with that uid already exists. */
  UserExists: -2003,
  /** A sub-account naming a main account that does not exist. */
  MainUserNotFound: -2004,
  /** A sub-account naming a main account that is itself a sub-account. */
  NestedSubAccount: -2005,
  /** A hold for that order id already exists (an engine bug if it reaches a client). */
  HoldExists: -2006,
  /** No hold for that order id. */
  HoldNotFound: -2007,
  /** A hold used against the wrong market or side (an engine bug). */
  HoldMismatch: -2008,
  /** A fill that would take more from a hold than it has left (an engine bug). */
  HoldExceeded: -2009,
  /** Unknown currency. */
  CurrencyNotFound: -2010,

  /** No resting order with that id. */
  OrderNotFound: -3001,
  /** Amend that changes neither price nor amount. */
  NoChange: -3002,
  /** Amend to an amount at or below what has already filled. */
  AmendBelowFilled: -3003,
  /** Amend of a post-only order to a price that would take. */
  PocWouldTake: -3004,
  /** Cancel or amend of an order that has already filled. */
  OrderClosed: -3005,
  /** Cancel or amend of an order that was already cancelled (by its owner, IOC/FOK/POC rules, STP, …). */
  OrderCancelled: -3006,

  /** A required header (KEY, Timestamp, SIGN) is absent. */
  MissingHeader: -4001,
  /** No API key with that id. */
  InvalidKey: -4002,
  /** SIGN does not match the request. */
  InvalidSignature: -4003,
  /** Timestamp outside the accepted window (or an x-gate-exptime already past). */
  RequestExpired: -4004,
  /** A write through a read-only key. */
  ReadOnly: -4005,
  /** The key lacks the permission group of the route (or the control-plane token is wrong). */
  Forbidden: -4006,
  /** The key's IP whitelist excludes the caller. */
  IpForbidden: -4007,
  /** The key's main account is frozen. */
  AccountLocked: -4008,
  /** The key's sub-account is frozen. */
  SubAccountLocked: -4009,
  /** No such path. */
  NotFound: -4010,
  /** The path exists, not with this method. */
  MethodNotAllowed: -4011,
  /** The body is not the JSON the route takes. */
  InvalidBody: -4012,
  /** A body with a Content-Type other than application/json. */
  InvalidContentType: -4013,
  /** A body above the server's size limit. */
  BodyTooLarge: -4014,
  /** Above the route's request rate. */
  TooManyRequests: -4015,
  /** An account other than spot and unified (margin, cross_margin): not served yet. */
  AccountNotSupported: -4016,
  /** A batch naming more currency pairs than allowed. */
  TooManyPairs: -4017,
  /** A batch with more orders (per pair, or in all) than allowed. */
  TooManyOrders: -4018,
  /** A batch mixing accounts. */
  MixedAccountType: -4019,
  /** A `>=` price trigger at or below the last price (it would fire at once). */
  TriggerPriceBelowLast: -4030,
  /** A `<=` price trigger at or above the last price (it would fire at once). */
  TriggerPriceAboveLast: -4031,
  /** A sub-account id that is unknown or belongs to another main account. */
  SubAccountNotFound: -4050,
  /** A transfer client_order_id that is not 1 to 64 of letters, digits, '-' and '_'. */
  InvalidClientOrderId: -4051,
  /** A transfer client_order_id already used for a different transfer. */
  DuplicateRequest: -4052,
  /** The account already holds the most API keys allowed. */
  TooManyKeys: -4053,

  /** A withdrawal sooner than the per-user interval after the previous one (1 per 3 s). */
  WithdrawTooFast: -5101,
  /** A withdrawal above what remains of the chain's daily limit. */
  WithdrawOverLimit: -5102,
  /** No withdrawal of the caller with that id. */
  InvalidWithdrawId: -5103,
  /** Cancel of a withdrawal whose status no longer allows it. */
  InvalidWithdrawCancelStatus: -5104,
  /** Withdrawals on that chain are switched off. */
  WithdrawDisabled: -5105,

  /** A unified mode switch refused while the account owes (classic or single_currency). */
  UserLiab: -6001,
  /** A unified mode switch refused while the account has open orders. */
  UserPendingOrders: -6002,
  /** A borrow in a unified mode that does not borrow (classic, single_currency). */
  BorrowNotAllowed: -6003,
  /** A borrow beyond the lending pool or the user's maximum. */
  BorrowTooLarge: -6004,
  /** A borrow the account's margin cannot carry. */
  MarginNotEnough: -6005,
  /** A repayment above what is owed (or of nothing owed). */
  RepayTooMuch: -6006,
  /** An order whose shortfall is more than the account may borrow. */
  AutoBorrowTooMuch: -6007,
  /** The account's debt ratio is too high (maintenance margin breached): no new orders or borrowing. */
  TradeRestricted: -6008,

  /** No such contract in the settle currency of the path. */
  ContractNotFound: -7001,
  /** A futures order size above the contract's order_size_max. */
  SizeTooLarge: -7002,
  /** A futures order size below the contract's order_size_min (or zero without close/auto_size). */
  SizeTooSmall: -7003,
  /** A futures order price too far from the mark price (order_price_deviate). */
  PriceTooDeviated: -7004,
  /** The futures account's available margin is below what the order or change needs. */
  InsufficientAvailable: -7005,
  /** The order, filled, would leave its position at or below maintenance margin at the mark price. */
  LiquidateImmediately: -7006,
  /** A reduce-only order larger than the position it reduces (or of an empty position). */
  ReduceExceeded: -7007,
  /** A reduce-only order on the side that would increase the position. */
  IncreasePosition: -7008,
  /** A post-only futures order that would take: refused. */
  OrderPocImmediate: -7009,
  /** A fill-or-kill futures order the book could not fill whole: refused. */
  OrderFok: -7010,
  /** The user has the most open orders the contract allows (orders_limit). */
  FuturesTooManyOrders: -7011,
  /** Forbidden in dual (hedge) mode (close, a single-mode position route). */
  PositionDualMode: -7012,
  LeverageTooHigh: -7013,
  LeverageTooLow: -7014,
  /** The position's value would pass its risk limit. */
  RiskLimitExceeded: -7015,
  /** An opening order priced beyond its position's liquidation price. */
  PriceOverLiquidation: -7016,
  /** Margin of a cross-margin position cannot be changed. */
  PositionCrossMargin: -7017,
  /** Removing more margin than the position can spare (it would fall below its initial margin). */
  RemoveTooMuch: -7018,
  RiskLimitNotMultiple: -7019,
  RiskLimitTooHigh: -7020,
  /** A risk limit below the base, or below the position's value. */
  RiskLimitTooLow: -7021,
  /** A position-mode switch while holding a position. */
  PositionHolding: -7022,
  /** A position-mode switch while orders are open. */
  OrderPending: -7023,
  /** A close (or a margin change) of an empty position. */
  PositionEmpty: -7024,
  /** Cancel or amend of a futures order that already finished. */
  OrderFinished: -7025,
  /** A liquidation of a position that is not at or below its maintenance margin (engine-internal). */
  NotLiquidatable: -7026,
  /** Funding before the contract's next funding time, or deleveraging with nothing to deleverage (engine-internal). */
  NothingDue: -7027,
  /** An opening order on a delivery contract in its delisting window, or any order once it expired. */
  ContractInDelisting: -7040,
  /** An options MMP order while market maker protection keeps the user's underlying frozen. */
  MmpFrozen: -7050,

  /** Out of capacity (order pool at its configured maximum); retry later. */
  BookFull: -9001,
  /** A ring to a market shard is full (backpressure); retry later. Nothing was applied. */
  Busy: -9002,
  /**
   * The engine stopped (a broken invariant or a dead shard worker): writes are refused until a restart
   * recovers the journaled state. A command answered with it may or may not be in the journal.
   */
  EngineStopped: -9003,
  /** The journal cannot be written (disk full, I/O error): writes are refused; the command is not durable. */
  JournalFailed: -9004,
  /**
   * A write sent to a follower of the replicated command log (engine/replication): only the leader takes
   * writes; nothing was applied. The reply names the leader's address.
   */
  NotLeader: -9005,
  /**
   * A read sent to a follower of the replicated log with X-Rm-Min-Seq naming an engine seq the follower had not
   * applied within the wait (api/server.ts); nothing was read. Retry, or read from the leader.
   */
  NotCaughtUp: -9006,
} as const;

export type ResultCode = (typeof ResultCode)[keyof typeof ResultCode];

/** Every code, for catalogue completeness checks. @allocates */
export const ALL_RESULT_CODES: readonly ResultCode[] = Object.values(ResultCode);

export const isRejection = (code: number): boolean => code < 0;
