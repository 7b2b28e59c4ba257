/**
 * Order enums as small integers (`as const` tables: they erase cleanly and cross threads as scalars),
 * their Gate spellings, and the reusable command objects the books take.
 */

export const Side = { Buy: 1, Sell: 2 } as const;
export type Side = (typeof Side)[keyof typeof Side];

export const OrderType = { Limit: 1, Market: 2 } as const;
export type OrderType = (typeof OrderType)[keyof typeof OrderType];

export const TimeInForce = { Gtc: 1, Ioc: 2, Poc: 3, Fok: 4 } as const;
export type TimeInForce = (typeof TimeInForce)[keyof typeof TimeInForce];

/** What a taker does on meeting a maker of its own STP group. None resolves to CancelNew for group members. */
export const StpAct = { None: 0, CancelNew: 1, CancelOld: 2, CancelBoth: 3 } as const;
export type StpAct = (typeof StpAct)[keyof typeof StpAct];

/** Why an order left the book (Gate's `finish_as`). */
export const FinishAs = {
  Filled: 1,
  Cancelled: 2,
  Ioc: 3,
  Poc: 4,
  Fok: 5,
  Stp: 6,
  DepthNotEnough: 7,
  /** A market buy whose budget could not buy a single lot at the best price. */
  Small: 8,
  // Futures finishes, written by the futures product (never by a book):
  /** A liquidation: the position was taken over at its bankruptcy price. */
  Liquidated: 9,
  /** Closed against a liquidated position (auto-deleveraging). */
  AutoDeleveraged: 10,
  /** A reduce-only order cut because its position shrank below it. */
  ReduceOut: 11,
  /** A reduce-only order cancelled because its position closed. */
  PositionClosed: 12,
  /** An options MMP order cancelled because market maker protection froze its underlying. */
  MmpCancelled: 13,
} as const;
export type FinishAs = (typeof FinishAs)[keyof typeof FinishAs];

export const SIDE_NAMES: Readonly<Record<Side, string>> = { [Side.Buy]: 'buy', [Side.Sell]: 'sell' };
export const ORDER_TYPE_NAMES: Readonly<Record<OrderType, string>> = { [OrderType.Limit]: 'limit', [OrderType.Market]: 'market' };
export const TIF_NAMES: Readonly<Record<TimeInForce, string>> = {
  [TimeInForce.Gtc]: 'gtc', [TimeInForce.Ioc]: 'ioc', [TimeInForce.Poc]: 'poc', [TimeInForce.Fok]: 'fok',
};
export const STP_ACT_NAMES: Readonly<Record<StpAct, string>> = {
  [StpAct.None]: '-', [StpAct.CancelNew]: 'cn', [StpAct.CancelOld]: 'co', [StpAct.CancelBoth]: 'cb',
};
export const FINISH_AS_NAMES: Readonly<Record<FinishAs, string>> = {
  [FinishAs.Filled]: 'filled', [FinishAs.Cancelled]: 'cancelled', [FinishAs.Ioc]: 'ioc', [FinishAs.Poc]: 'poc',
  [FinishAs.Fok]: 'fok', [FinishAs.Stp]: 'stp', [FinishAs.DepthNotEnough]: 'depth_not_enough', [FinishAs.Small]: 'small',
  [FinishAs.Liquidated]: 'liquidated', [FinishAs.AutoDeleveraged]: 'auto_deleveraged', [FinishAs.ReduceOut]: 'reduce_out',
  [FinishAs.PositionClosed]: 'position_closed', [FinishAs.MmpCancelled]: 'mmp_cancelled',
};

export const opposite = (side: Side): Side => (side === Side.Buy ? Side.Sell : Side.Buy);

/**
 * A place-order command. Callers keep one instance and overwrite its fields per command (no allocation);
 * books read it during `place` only and never keep a reference.
 */
export class PlaceOrder {
  /** Unique among resting orders of the book; a safe integer > 0 (the engine assigns them). */
  orderId = 0;
  /** Owner; integer in [1, 2^31). */
  userId = 0;
  /** STP group of the owner; 0 = none. */
  stpId = 0;
  side: number = Side.Buy;
  type: number = OrderType.Limit;
  tif: number = TimeInForce.Gtc;
  /** Limit price in ticks; ignored for market orders. */
  price = 0;
  /** Limit and market sell: base lots. Market buy: quote budget in notional units (ticks × lots). */
  amount = 0;
  /** Iceberg: lots on display; 0 (or = amount) shows everything. Limit orders only. */
  iceberg = 0;
  stpAct: number = StpAct.None;

  /** Overwrites every field; returns this. */
  set(orderId: number, userId: number, side: number, type: number, tif: number, price: number, amount: number,
    iceberg = 0, stpId = 0, stpAct: number = StpAct.None): this {
    this.orderId = orderId; this.userId = userId; this.side = side; this.type = type; this.tif = tif;
    this.price = price; this.amount = amount; this.iceberg = iceberg; this.stpId = stpId; this.stpAct = stpAct;
    return this;
  }

  /** Shorthand for tests and tools: a limit order. */
  limit(orderId: number, userId: number, side: number, price: number, lots: number, tif: number = TimeInForce.Gtc): this {
    return this.set(orderId, userId, side, OrderType.Limit, tif, price, lots);
  }
}

/** A resting order as queries report it. Books fill a caller-owned instance (no allocation). */
export class OrderView {
  orderId = 0;
  userId = 0;
  stpId = 0;
  side: number = Side.Buy;
  tif: number = TimeInForce.Gtc;
  stpAct: number = StpAct.None;
  price = 0;
  /** Total amount in lots (changed by amend). */
  amount = 0;
  /** Lots still open (visible + hidden). */
  left = 0;
  /** Lots on display now: left for plain orders, up to `iceberg` for icebergs. */
  visible = 0;
  /** Iceberg display size; 0 for plain orders. */
  iceberg = 0;
}
