/**
 * The package's public API (`import … from 'ringmatch'`): the embedded exchange (in-process, no HTTP), the
 * simulator's server starter, the backtesting replays and the config types and checks. The test fixture is
 * `ringmatch/testing`; the config's JSON Schema is `ringmatch/config.schema.json`. Everything else under
 * dist/ is internal and may change without notice.
 */
// The embedded exchange: Gate-shaped calls in-process (README, "Embedded API").
export { EmbeddedExchange, type EmbeddedOptions, GateApiError } from './sim/embedded-exchange.js';
export { type Clock, SimClock } from './core/clock.js';
export type { GateAccountBookEntry, GateOrder, GateOrderBook, GateSpotAccount, GateTrade } from './gate/shapes.js';
export type { MarketConfig } from './core/exchange/exchange-definition.js';

// The simulator over HTTP and WebSocket (what `ringmatch start` runs).
export { type Simulator, type StartOptions, startSimulator } from './main.js';
export { ConfigError } from './core/invariant.js';

// Config: types, validation (errors name the field), the built-in demo.
export {
  type ClockConfig, type EngineConfig, type FileUser, type SimulatorConfig, type SnapshotConfig, loadConfigFile, validateConfig,
} from './sim/config-file.js';
export type { OpeningBalance, SimConfig, SimKey, SimUser } from './sim/sim-config.js';
export { DEMO_CONFIG } from './sim/demo.js';

// Backtesting replays (docs/replay.md): a journal's order flow, recorded market data with a strategy, a served replay.
export { type JournalReplayResult, replayJournal } from './backtest/journal-replay.js';
export { type ReplayIo, runReplay } from './backtest/replay-command.js';
export { parseReplayArgs } from './backtest/replay-args.js';
export { type ReplayConfig, readReplayConfig } from './backtest/replay-config.js';
export { type ServeArgs, type ServeStats, serveReplay } from './backtest/replay-server.js';
export type { BookView, MarketInfo, NewOrder, PublicTrade, Strategy, StrategyContext, StrategyFactory } from './backtest/strategy.js';
