/**
 * Small pieces every futures command module shares: the invariant a step that cannot fail asserts, and the
 * contract a command names.
 */
import type { Command } from '../command.js';
import type { ExchangeContext } from '../exchange/context.js';
import { invariant } from '../invariant.js';
import { ResultCode } from '../result-code.js';

/** Asserts a ledger or position step the command's own checks made certain. */
export const ok = (code: number): void => invariant(code === ResultCode.Ok, `futures command failed (code ${code})`);

/** The contract index of the command's market, or -1. */
export const contractOfCommand = (ctx: ExchangeContext, c: Command): number => ctx.futures.contractOf(c.market);
