/**
 * The one catalogue of errors: core result code → Gate label → HTTP status.
 *
 * `Record<ResultCode, …>` makes the compiler reject a code without an entry; a test checks that every label
 * is one of Gate's and that README's error table lists it.
 */
import { ResultCode } from '../core/result-code.js';

export interface GateError {
  readonly label: string;
  readonly status: number;
  readonly message: string;
}

type Rejection = Exclude<ResultCode, typeof ResultCode.Ok>;

export const ERROR_CATALOGUE: Readonly<Record<Rejection, GateError>> = {
  [ResultCode.InvalidParam]: { label: 'INVALID_PARAM_VALUE', status: 400, message: 'Invalid parameter value' },
  [ResultCode.InvalidPrecision]: { label: 'INVALID_PRECISION', status: 400, message: 'Too many decimal places' },
  [ResultCode.AmountTooLittle]: { label: 'AMOUNT_TOO_LITTLE', status: 400, message: 'Amount below the minimum' },
  [ResultCode.AmountTooMuch]: { label: 'AMOUNT_TOO_MUCH', status: 400, message: 'Amount above the maximum' },
  [ResultCode.InvalidMarket]: { label: 'INVALID_CURRENCY_PAIR', status: 400, message: 'Unknown currency pair' },
  [ResultCode.StpWithoutGroup]: { label: 'INVALID_PARAM_VALUE', status: 400, message: 'stp_act given by a user in no STP group' },
  [ResultCode.MissingParam]: { label: 'MISSING_REQUIRED_PARAM', status: 400, message: 'Missing required parameter' },
  [ResultCode.DuplicateOrderId]: { label: 'ORDER_EXISTS', status: 400, message: 'Order already exists' },
  [ResultCode.BalanceNotEnough]: { label: 'BALANCE_NOT_ENOUGH', status: 400, message: 'Balance not enough' },
  [ResultCode.UserNotFound]: { label: 'USER_NOT_FOUND', status: 400, message: 'User not found' },
  [ResultCode.UserExists]: { label: 'INVALID_PARAM_VALUE', status: 400, message: 'User already exists' },
  [ResultCode.MainUserNotFound]: { label: 'USER_NOT_FOUND', status: 400, message: 'Main account not found' },
  [ResultCode.NestedSubAccount]: { label: 'INVALID_PARAM_VALUE', status: 400, message: 'A sub-account cannot own sub-accounts' },
  [ResultCode.HoldExists]: { label: 'ORDER_EXISTS', status: 400, message: 'Order already exists' },
  [ResultCode.HoldNotFound]: { label: 'ORDER_NOT_FOUND', status: 404, message: 'Order not found' },
  [ResultCode.HoldMismatch]: { label: 'SERVER_ERROR', status: 500, message: 'Internal server error' },
  [ResultCode.HoldExceeded]: { label: 'SERVER_ERROR', status: 500, message: 'Internal server error' },
  [ResultCode.CurrencyNotFound]: { label: 'INVALID_CURRENCY', status: 400, message: 'Unknown currency' },
  [ResultCode.OrderNotFound]: { label: 'ORDER_NOT_FOUND', status: 404, message: 'Order not found' },
  [ResultCode.NoChange]: { label: 'NO_CHANGE', status: 400, message: 'Amend changes nothing' },
  [ResultCode.AmendBelowFilled]: { label: 'INVALID_PARAM_VALUE', status: 400, message: 'New amount is not above the filled amount' },
  [ResultCode.OrderClosed]: { label: 'ORDER_CLOSED', status: 400, message: 'Order already filled' },
  [ResultCode.OrderCancelled]: { label: 'ORDER_CANCELLED', status: 400, message: 'Order already cancelled' },
  [ResultCode.PocWouldTake]: { label: 'POC_FILL_IMMEDIATELY', status: 400, message: 'Post-only order would take liquidity' },
  [ResultCode.MissingHeader]: { label: 'MISSING_REQUIRED_HEADER', status: 401, message: 'Missing required header: KEY, Timestamp or SIGN' },
  [ResultCode.InvalidKey]: { label: 'INVALID_KEY', status: 401, message: 'Invalid key provided' },
  [ResultCode.InvalidSignature]: { label: 'INVALID_SIGNATURE', status: 401, message: 'Signature mismatch' },
  [ResultCode.RequestExpired]: { label: 'REQUEST_EXPIRED', status: 401, message: 'Request timestamp far from server time' },
  [ResultCode.ReadOnly]: { label: 'READ_ONLY', status: 403, message: 'API key is read-only' },
  [ResultCode.Forbidden]: { label: 'FORBIDDEN', status: 403, message: 'No permission for this operation' },
  [ResultCode.IpForbidden]: { label: 'IP_FORBIDDEN', status: 403, message: 'Request IP not in the key\'s whitelist' },
  [ResultCode.AccountLocked]: { label: 'ACCOUNT_LOCKED', status: 403, message: 'Account is locked' },
  [ResultCode.SubAccountLocked]: { label: 'SUB_ACCOUNT_LOCKED', status: 403, message: 'Sub-account is locked' },
  [ResultCode.NotFound]: { label: 'NOT_FOUND', status: 404, message: 'Not found' },
  [ResultCode.MethodNotAllowed]: { label: 'METHOD_NOT_ALLOWED', status: 405, message: 'Method not allowed' },
  [ResultCode.InvalidBody]: { label: 'INVALID_REQUEST_BODY', status: 400, message: 'Invalid request body' },
  [ResultCode.InvalidContentType]: { label: 'INVALID_CONTENT_TYPE', status: 415, message: 'Content-Type must be application/json' },
  [ResultCode.BodyTooLarge]: { label: 'INVALID_REQUEST_BODY', status: 413, message: 'Request body too large' },
  [ResultCode.TooManyRequests]: { label: 'TOO_MANY_REQUESTS', status: 429, message: 'Request rate limit exceeded' },
  [ResultCode.AccountNotSupported]: { label: 'MARGIN_NOT_SUPPORTED', status: 400, message: 'This account is not served here' },
  [ResultCode.TooManyPairs]: { label: 'TOO_MANY_CURRENCY_PAIRS', status: 400, message: 'Too many currency pairs in the batch' },
  [ResultCode.TooManyOrders]: { label: 'TOO_MANY_ORDERS', status: 400, message: 'Too many orders in the batch' },
  [ResultCode.MixedAccountType]: { label: 'MIXED_ACCOUNT_TYPE', status: 400, message: 'More than one account type in the batch' },
  [ResultCode.TriggerPriceBelowLast]: { label: 'AUTO_TRIGGER_PRICE_LESS_LAST', status: 400, message: 'Trigger price must be above the last price for rule >=' },
  [ResultCode.TriggerPriceAboveLast]: { label: 'AUTO_TRIGGER_PRICE_GREATE_LAST', status: 400, message: 'Trigger price must be below the last price for rule <=' },
  [ResultCode.SubAccountNotFound]: { label: 'SUB_ACCOUNT_NOT_FOUND', status: 404, message: 'Sub-account not found' },
  [ResultCode.InvalidClientOrderId]: { label: 'INVALID_CLIENT_ORDER_ID', status: 400, message: 'client_order_id must be 1 to 64 of letters, digits, \'-\' and \'_\'' },
  [ResultCode.DuplicateRequest]: { label: 'DUPLICATE_REQUEST', status: 400, message: 'client_order_id already used for a different transfer' },
  [ResultCode.TooManyKeys]: { label: 'BAD_REQUEST', status: 400, message: 'The account already has the most API keys allowed' },
  [ResultCode.WithdrawTooFast]: { label: 'TOO_FAST', status: 429, message: 'Withdrawal frequency exceeded' },
  [ResultCode.WithdrawOverLimit]: { label: 'WITHDRAWAL_OVER_LIMIT', status: 400, message: 'Withdrawal over the daily limit' },
  [ResultCode.InvalidWithdrawId]: { label: 'INVALID_WITHDRAW_ID', status: 404, message: 'Withdrawal not found' },
  [ResultCode.InvalidWithdrawCancelStatus]: { label: 'INVALID_WITHDRAW_CANCEL_STATUS', status: 400, message: 'The withdrawal can no longer be cancelled' },
  [ResultCode.WithdrawDisabled]: { label: 'API_WITHDRAW_DISABLED', status: 400, message: 'Withdrawals are disabled on this chain' },
  [ResultCode.UserLiab]: { label: 'USER_LIAB', status: 400, message: 'The account has liabilities' },
  [ResultCode.UserPendingOrders]: { label: 'USER_PENDING_ORDERS', status: 400, message: 'The account has open orders' },
  [ResultCode.BorrowNotAllowed]: { label: 'INVALID_PARAM_VALUE', status: 400, message: 'Borrowing needs multi_currency or portfolio mode' },
  [ResultCode.BorrowTooLarge]: { label: 'BORROW_TOO_LARGE', status: 400, message: 'Above the lending pool or the user maximum' },
  [ResultCode.MarginNotEnough]: { label: 'MARGIN_BALANCE_NOT_ENOUGH', status: 400, message: 'Margin not enough for this borrowing' },
  [ResultCode.RepayTooMuch]: { label: 'REPAY_TOO_MUCH', status: 400, message: 'Repayment above the amount owed' },
  [ResultCode.AutoBorrowTooMuch]: { label: 'AUTO_BORROW_TOO_MUCH', status: 400, message: 'The order needs more than the account may borrow' },
  [ResultCode.TradeRestricted]: { label: 'TRADE_RESTRICTED', status: 400, message: 'Debt ratio too high' },
  [ResultCode.ContractNotFound]: { label: 'CONTRACT_NOT_FOUND', status: 400, message: 'Contract not found in this settle currency' },
  [ResultCode.SizeTooLarge]: { label: 'SIZE_TOO_LARGE', status: 400, message: 'Order size above the contract maximum' },
  [ResultCode.SizeTooSmall]: { label: 'SIZE_TOO_SMALL', status: 400, message: 'Order size below the contract minimum' },
  [ResultCode.PriceTooDeviated]: { label: 'PRICE_TOO_DEVIATED', status: 400, message: 'Order price too far from the mark price' },
  [ResultCode.InsufficientAvailable]: { label: 'INSUFFICIENT_AVAILABLE', status: 400, message: 'Insufficient available margin' },
  [ResultCode.LiquidateImmediately]: { label: 'LIQUIDATE_IMMEDIATELY', status: 400, message: 'The order would be liquidated at once' },
  [ResultCode.ReduceExceeded]: { label: 'REDUCE_EXCEEDED', status: 400, message: 'Reduce-only order larger than the position' },
  [ResultCode.IncreasePosition]: { label: 'INCREASE_POSITION', status: 400, message: 'Reduce-only order would increase the position' },
  [ResultCode.OrderPocImmediate]: { label: 'ORDER_POC_IMMEDIATE', status: 400, message: 'Post-only order would take liquidity' },
  [ResultCode.OrderFok]: { label: 'ORDER_FOK', status: 400, message: 'Fill-or-kill order cannot be filled completely' },
  [ResultCode.FuturesTooManyOrders]: { label: 'TOO_MANY_ORDERS', status: 400, message: 'Too many open orders in this contract' },
  [ResultCode.PositionDualMode]: { label: 'POSITION_DUAL_MODE', status: 400, message: 'Not allowed in dual position mode' },
  [ResultCode.LeverageTooHigh]: { label: 'LEVERAGE_TOO_HIGH', status: 400, message: 'Leverage above the risk limit maximum' },
  [ResultCode.LeverageTooLow]: { label: 'LEVERAGE_TOO_LOW', status: 400, message: 'Leverage below the contract minimum' },
  [ResultCode.RiskLimitExceeded]: { label: 'RISK_LIMIT_EXCEEDED', status: 400, message: 'Position value would pass the risk limit' },
  [ResultCode.PriceOverLiquidation]: { label: 'PRICE_OVER_LIQUIDATION', status: 400, message: 'Order price beyond the liquidation price' },
  [ResultCode.PositionCrossMargin]: { label: 'POSITION_CROSS_MARGIN', status: 400, message: 'Margin cannot be changed in cross margin' },
  [ResultCode.RemoveTooMuch]: { label: 'REMOVE_TOO_MUCH', status: 400, message: 'Removing more margin than the position can spare' },
  [ResultCode.RiskLimitNotMultiple]: { label: 'RISK_LIMIT_NOT_MULTIPLE', status: 400, message: 'Risk limit is not a multiple of the step' },
  [ResultCode.RiskLimitTooHigh]: { label: 'RISK_LIMIT_TOO_HIGH', status: 400, message: 'Risk limit above the maximum' },
  [ResultCode.RiskLimitTooLow]: { label: 'RISK_LIMIT_TOO_lOW', status: 400, message: 'Risk limit below the base or the position value' },
  [ResultCode.PositionHolding]: { label: 'POSITION_HOLDING', status: 400, message: 'Not allowed while holding a position' },
  [ResultCode.OrderPending]: { label: 'ORDER_PENDING', status: 400, message: 'Not allowed with open orders' },
  [ResultCode.PositionEmpty]: { label: 'POSITION_EMPTY', status: 400, message: 'The position is empty' },
  [ResultCode.OrderFinished]: { label: 'ORDER_FINISHED', status: 400, message: 'Order already finished' },
  [ResultCode.MmpFrozen]: { label: 'RISK_REJECT', status: 400, message: 'MMP orders of this underlying are frozen' },
  [ResultCode.NotLiquidatable]: { label: 'INVALID_PARAM_VALUE', status: 400, message: 'The position is not at its maintenance margin' },
  [ResultCode.NothingDue]: { label: 'INVALID_PARAM_VALUE', status: 400, message: 'Nothing is due' },
  [ResultCode.ContractInDelisting]: { label: 'CONTRACT_IN_DELISTING', status: 400,
    message: 'The delivery contract is delisting (reduce-only orders only) or expired' },
  [ResultCode.BookFull]: { label: 'TOO_BUSY', status: 503, message: 'Server busy, retry later' },
  [ResultCode.Busy]: { label: 'TOO_BUSY', status: 503, message: 'Server busy, retry later' },
  [ResultCode.EngineStopped]: { label: 'TOO_BUSY', status: 503,
    message: 'The engine stopped; writes are refused until a restart recovers the journal (GET /sim/health says why)' },
  [ResultCode.JournalFailed]: { label: 'TOO_BUSY', status: 503,
    message: 'The journal cannot be written; this write is not durable and writes are refused until a restart (GET /sim/health says why)' },
  [ResultCode.NotLeader]: { label: 'READ_ONLY', status: 403,
    message: 'This node is a read-only follower of the replicated log; send writes to the leader (GET /sim/replication names it)' },
  [ResultCode.NotCaughtUp]: { label: 'TOO_BUSY', status: 503,
    message: 'This follower has not yet applied the log up to X-Rm-Min-Seq; retry, or read from the leader (GET /sim/replication names it)' },
};

/** The Gate error for a rejection code. Throws on Ok or an unknown code (a programmer error). */
export function gateError(code: number): GateError {
  const e = (ERROR_CATALOGUE as Readonly<Record<number, GateError>>)[code];
  if (e === undefined) throw new RangeError(`no Gate error for result code ${code}`);
  return e;
}
