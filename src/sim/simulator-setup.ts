/**
 * What the simulator's composition root (src/main.ts) builds from a config: the exchange definition, the
 * opening credits and the market maker. The market maker's users that the config lacks join the definition's
 * users and its funds the opening credits (market-maker/plan.ts); everything credited is checked against each
 * currency's max supply. Pure; throws ConfigError naming the field. config-file.ts runs it at load time, so a
 * config that loads also starts.
 */
import type { ExchangeDefinition } from '../core/exchange/exchange-definition.js';
import { checkSupply, creditedUnits, currencyRules } from './config-amounts.js';
import type { MarketMakerConfig } from './market-maker/config.js';
import { planMarketMaker } from './market-maker/plan.js';
import { definitionFromConfig, type OpeningBalance, type SimConfig } from './sim-config.js';

export interface SimulatorSetup {
  readonly definition: ExchangeDefinition;
  /** Credited in this order at a fresh start: the users' balances, the lending pools, the market maker's funds. */
  readonly balances: readonly OpeningBalance[];
  readonly marketMaker: MarketMakerConfig | undefined;
}

/** See the module header. @allocates */
export function simulatorSetup(config: SimConfig, startMs?: number): SimulatorSetup {
  const { definition, balances } = definitionFromConfig(config, startMs);
  const rules = currencyRules(definition.currencies);
  const plan = planMarketMaker(config, definition.currencies, creditedUnits(balances, rules));
  const all = plan === undefined ? balances : [...balances, ...plan.funding];
  checkSupply(all, rules);
  if (plan === undefined) return { definition, balances: all, marketMaker: undefined };
  const users = [...(definition.users ?? []), ...plan.newUsers.map((uid) => ({ uid, main_uid: 0 }))];
  return { definition: { ...definition, users }, balances: all, marketMaker: plan.config };
}
