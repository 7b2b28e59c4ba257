/**
 * `ringmatch/testing`: the fixture for bots' own test suites (docs/testing.md).
 *
 *   import { startExchange } from 'ringmatch/testing';
 *   const ex = await startExchange();
 *   const gate = new ccxt.gate(ex.ccxt());
 *   ...
 *   await ex.stop();
 */
export {
  type ExchangeFixture, type FixtureKey, SimRequestError, type StartExchangeOptions, fixtureConfig, startExchange,
  type CcxtOptions, type CcxtProOptions, type GateApiOptions,
} from './start-exchange.js';
