/**
 * Building the options state of an exchange from its definition, and the options invariants.
 *
 * Contracts become markets after the spot markets and the perpetual contracts (market index = first options
 * market + contract index, bookMarketSpecs); each underlying's quote must be a currency of the definition.
 */
import type { ExchangeContext } from '../exchange/context.js';
import type { ExchangeDefinition } from '../exchange/exchange-definition.js';
import { ConfigError, invariant } from '../invariant.js';
import { INSURANCE_UID } from '../ledger/futures-funds.js';
import { LedgerCode } from '../ledger/ledger-codes.js';
import type { Ledger } from '../ledger/ledger.js';
import { ResultCode } from '../result-code.js';
import { defineOptionContracts } from './options-contract.js';
import { OptionsState, positionKey } from './options-state.js';

/**
 * The options state of `def` (empty without underlyings). With underlyings, the reserved liquidator user
 * (INSURANCE_UID) is registered (unless the futures did) and the options insurance fund of each settle currency
 * (its options account) opened. Throws ConfigError. @allocates
 */
export function defineOptions(def: ExchangeDefinition, ledger: Ledger, currencies: readonly string[], firstMarket: number,
  markets: number): OptionsState {
  const scaleOf = (code: string): number | undefined => def.currencies.find((c) => c.code === code)?.scale;
  const { underlyings, contracts } = defineOptionContracts(def.options, scaleOf);
  const settleCur = underlyings.map((u) => currencies.indexOf(u.quote));
  if (contracts.length > 0) {
    if (def.users?.some((u) => u.uid === INSURANCE_UID) === true) throw new ConfigError(`uid ${INSURANCE_UID} is reserved for the liquidator`);
    const added = ledger.addUser(INSURANCE_UID);
    invariant(added === ResultCode.Ok || added === LedgerCode.UserExists, 'the liquidator cannot be registered');
    for (const cur of new Set(settleCur)) ledger.options.ensureInsuranceFund(cur);
  }
  return new OptionsState(underlyings, contracts, firstMarket, markets, settleCur);
}

/**
 * Throws InvariantError unless every contract's position sizes sum to 0 (each fill moves both sides), a settled
 * contract has no position, a non-short position has no margin hold, and open-order counters are non-negative.
 * @allocates
 */
export function assertOptionsInvariants(ctx: ExchangeContext): void {
  const S = ctx.options;
  const sum = new Float64Array(S.contracts.length);
  S.rows.forEach((p, r) => {
    invariant(Number.isSafeInteger(p.size), `options: position ${r} size ${p.size}`);
    sum[p.ci] = sum[p.ci]! + p.size;
    invariant(p.size !== 0 || p.cost === 0n, `options: empty position ${r} keeps cost ${p.cost}`);
    invariant(S.settled[p.ci] === 0 || p.size === 0, `options: position ${r} of a settled contract`);
    invariant(p.size < 0 || ctx.ledger.options.held(positionKey(r)) <= 0n, `options: position ${r} (size ${p.size}) holds margin`);
    invariant(p.pending >= 0 && p.openBuy >= 0 && p.openSell >= 0, `options: position ${r} open-order counters below 0`);
  });
  sum.forEach((s, i) => invariant(s === 0, `options: contract ${S.contracts[i]!.name} sizes sum to ${s}`));
}
