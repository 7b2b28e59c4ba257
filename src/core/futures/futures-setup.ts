/**
 * Building the futures state of an exchange from its definition, and the futures invariants.
 *
 * Contracts become markets after the spot markets (market index = spot markets + contract index); their settle
 * currencies must be currencies of the definition. With any contract, the reserved liquidator INSURANCE_UID is
 * registered and its futures account (the insurance fund) opened for each settle currency.
 */
import type { ExchangeContext } from '../exchange/context.js';
import type { ExchangeDefinition } from '../exchange/exchange-definition.js';
import { ConfigError, invariant } from '../invariant.js';
import { INSURANCE_UID } from '../ledger/futures-funds.js';
import type { Ledger } from '../ledger/ledger.js';
import { ResultCode } from '../result-code.js';
import { defineContract } from './contract.js';
import { FuturesState } from './futures-state.js';
import { PositionSlot } from './position-store.js';

/** The futures state of `def` (empty without contracts). Throws ConfigError on contracts that cannot work. @allocates */
export function defineFutures(def: ExchangeDefinition, ledger: Ledger, currencies: readonly string[], markets: number): FuturesState {
  const specs = def.futures?.contracts ?? [];
  const spot = def.markets.length;
  const seen = new Set<string>();
  const contracts = specs.map((spec) => {
    const code = spec.settle.toUpperCase();
    const cur = currencies.indexOf(code);
    if (cur < 0) throw new ConfigError(`futures contract ${spec.name}: settle currency ${code} is not a currency of the exchange`);
    const key = `${spec.settle.toLowerCase()}/${spec.name}`;
    if (seen.has(key)) throw new ConfigError(`futures contract ${spec.name} listed twice for settle ${spec.settle}`);
    seen.add(key);
    return defineContract(spec, ledger.futures.scaleOf(cur));
  });
  const settleCur = contracts.map((c) => currencies.indexOf(c.settleCode));
  const state = new FuturesState(contracts, contracts.map((_, i) => spot + i), settleCur, markets, currencies.length);
  if (contracts.length > 0) {
    if (def.users?.some((u) => u.uid === INSURANCE_UID) === true) throw new ConfigError(`uid ${INSURANCE_UID} is reserved for the liquidator`);
    invariant(ledger.addUser(INSURANCE_UID) === ResultCode.Ok, 'the liquidator cannot be registered');
    for (const cur of new Set(settleCur)) ledger.futures.ensureInsuranceFund(cur);
  }
  return state;
}

/**
 * Throws InvariantError unless, per settle currency, clearing + unbacked = Σ position bases; every empty position
 * has basis 0; each position's basis has its direction's sign; a dual-mode long leg is never short nor a short
 * leg long; open-order counters are non-negative. @allocates
 */
export function assertFuturesInvariants(ctx: ExchangeContext): void {
  const S = ctx.futures;
  const P = S.positions;
  const basis = new Map<number, bigint>();
  for (let r = 0; r < P.count; r++) {
    const ci = S.contractOf(P.market[r]!);
    invariant(ci >= 0, `futures: position row ${r} is not on a contract`);
    const cur = S.settleCur[ci]!;
    const n = P.size[r]!;
    const b = P.basis[r]!;
    invariant(Number.isSafeInteger(n), `futures: position ${r} size ${n}`);
    invariant(n !== 0 || b === 0n, `futures: empty position ${r} keeps basis ${b}`);
    const slot = P.slot[r]!;
    invariant(!((slot === PositionSlot.DualLong && n < 0) || (slot === PositionSlot.DualShort && n > 0)),
      `futures: dual-mode leg ${r} (slot ${slot}) has size ${n}`);
    // A long pays for its contracts on a linear contract (basis ≤ 0) and receives on an inverse one.
    const inverse = S.contracts[ci]!.inverse;
    if (n !== 0) invariant((n > 0) !== inverse ? b <= 0n : b >= 0n, `futures: position ${r} (size ${n}) has basis ${b}`);
    invariant(P.pending[r]! >= 0 && P.openBuy[r]! >= 0 && P.openSell[r]! >= 0, `futures: position ${r} open-order counters below 0`);
    basis.set(cur, (basis.get(cur) ?? 0n) + b);
  }
  for (const cur of new Set(S.settleCur)) {
    const clearing = ctx.ledger.futures.clearing(cur);
    const sum = basis.get(cur) ?? 0n;
    invariant(clearing + S.unbacked[cur]! === sum,
      `futures: ${ctx.currencies[cur]} clearing ${clearing} + unbacked ${S.unbacked[cur]} ≠ Σ bases ${sum}`);
  }
}
