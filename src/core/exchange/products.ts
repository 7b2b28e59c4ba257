/**
 * The products of the exchange, registered in one place: which product applies each command type, and which
 * book product owns each market's orders. Adding a product (perpetual futures, delivery, options) is adding
 * it here; the pipeline (exchange.ts) does not change.
 *
 *   command type                                          product
 *   PlaceOrder, AmendOrder, CancelOrder, CancelAll        the book product of the command's market: spot
 *                                                         (spot-orders.ts) or perpetual futures (futures/futures-orders.ts)
 *   Credit, Debit, Transfer, Withdraw{Hold,Settle,Release} funds (funds-commands.ts)
 *   AddUser                                               users
 *   PutRecords                                            records (only the records it carries)
 *   Unified{Borrow,Repay,Accrue,SetMode}                  unified (unified/unified-commands.ts)
 *   Margin{Borrow,Repay}                                  margin (margin/margin-commands.ts)
 *   Futures{SetLeverage,UpdateMargin,SetRiskLimit,        futures (futures/futures-commands.ts)
 *     SetDualMode,SetPrices,Funding,Liquidate,Deleverage}
 */
import { CommandType } from '../command.js';
import { MARGIN_LOANS } from '../margin/margin-commands.js';
import { ResultCode } from '../result-code.js';
import { UNIFIED_LOANS } from '../unified/unified-commands.js';
import type { BookProduct, CommandProduct } from './context.js';
import { FUNDS } from './funds-commands.js';
import { SpotOrders } from './spot-orders.js';
import { FUTURES_COMMANDS } from '../futures/futures-commands.js';
import { FuturesOrders } from '../futures/futures-orders.js';
import { OPTIONS_COMMANDS } from '../options/options-commands.js';
import { OptionsOrders } from '../options/options-orders.js';

const USERS: CommandProduct = {
  name: 'users',
  commands: [CommandType.AddUser],
  apply: (ctx, c) => ctx.ledger.addUser(c.uid, c.toUid),
};

/** A command that puts its records and nothing else (the pipeline applies the records of every command). */
const RECORDS: CommandProduct = {
  name: 'records',
  commands: [CommandType.PutRecords],
  apply: () => ResultCode.Ok,
};

/** Every product whose commands complete in R1. */
export const COMMAND_PRODUCTS: readonly CommandProduct[] = [FUNDS, USERS, RECORDS, UNIFIED_LOANS, MARGIN_LOANS, FUTURES_COMMANDS,
  OPTIONS_COMMANDS];

/**
 * The book product of each market: `spot` spot markets, then `contracts` perpetual contracts (a fresh instance
 * per exchange: products keep scratch state).
 */
export function bookProducts(spot: number, contracts: number, options = 0): BookProduct[] {
  const spotOrders = new SpotOrders();
  const futuresOrders = new FuturesOrders();
  const optionsOrders = new OptionsOrders();
  return [...Array.from({ length: spot }, () => spotOrders), ...Array.from({ length: contracts }, () => futuresOrders),
    ...Array.from({ length: options }, () => optionsOrders)];
}
