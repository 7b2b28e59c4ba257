/**
 * `npm start -- --replay --format tardis --trades FILE --book FILE [--speed X] [--sim-config FILE] [--config FILE]`:
 * the HTTP (and WebSocket) simulator on a market replayed from data, in simulated time, so an unchanged
 * ccxt or gate-api bot trades against real history. The public book is mirrored into the live book as the
 * liquidity account's orders (./book-mirror.ts); public trades are the taker account's IOCs.
 *
 * Time: the simulated clock follows the data's exchange time; `--speed X` paces it at X× wall time (default
 * 1), `--speed 0` replays as fast as possible (yielding to the server between batches). When the data ends,
 * the server keeps serving the final state until stopped. Users and keys come from `--sim-config` (the
 * `npm start` config format; its pairs, clock and engine are replaced), else the demo users with their keys,
 * funded with 100,000 quote and 10 base. The engine runs inline. Currencies: the replay config's and the
 * simulator config's `currencies`, else scales that keep every fee exact (./replay-currencies.ts).
 *
 * A perpetual (`--ticker FILE`, a Tardis derivative_ticker, or a replay config with `contract`): the contract
 * (./perp/perp-definition.ts) is served beside its spot pair (REST /futures/usdt/…, WebSocket /v4/ws/fx/usdt),
 * the book is mirrored into the contract's book with futures orders, the demo users get 100,000 of the settle
 * currency in their futures accounts, and the recorded marks, funding and liquidations are applied as in a
 * replay (./perp/perp-driver.ts) through the gateway. The engine's own price clock is off.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldNow, setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../core/invariant.js';
import { Side } from '../core/matching/order-types.js';
import { type Simulator, startSimulator } from '../main.js';
import { loadConfigFile, type SimulatorConfig } from '../sim/config-file.js';
import { DEMO_CONFIG } from '../sim/demo.js';
import { NOTHING_SKIPPED, type SkippedRowsReport } from './csv/invalid-rows.js';
import { BookMirror, MIRROR_LIQUIDITY_UID, MIRROR_TAKER_UID } from './book-mirror.js';
import { DELTA_FLAG } from './formats/gate.js';
import { gateInputs, tardisInputs } from './md-inputs.js';
import { fmtBig } from './md-accounts.js';
import { replayDefinition } from './md-replay.js';
import { RowFlag, RowKind } from './md-rows.js';
import { parseReplayArgs, type ReplayArgs } from './replay-args.js';
import { configOf, invalidRowsOf } from './replay-command.js';
import { replayCurrencies, supplyUnits } from './replay-currencies.js';
import { Command, CommandType } from '../core/command.js';
import type { MarketConfig } from '../core/exchange/exchange-definition.js';
import type { CurrencySpec } from '../core/ledger/currencies.js';
import { AccountKind } from '../core/ledger/account-kinds.js';
import { DEFAULT_INSURANCE, isPerp, perpContract } from './perp/perp-definition.js';
import { PerpDriver } from './perp/perp-driver.js';

export interface ServeArgs {
  readonly replay: ReplayArgs;
  readonly speed: number;
  readonly simConfig?: string;
  readonly host?: string;
  readonly port?: number;
}

export interface ServeStats {
  rows: number; batches: number; levels: number; trades: number; clientFills: number;
  /** Rows skipped with `--skip-invalid`, by reason (nothing without it: the first invalid row stops the replay). */
  skipped: SkippedRowsReport;
  /** A perpetual's prices, funding and liquidations (./perp/perp-driver.ts report), when the data ended. */
  perpetual?: Record<string, unknown>;
}

/** Splits `start --replay …` flags: the serving ones here, the rest are `replay` flags. */
export function parseServeArgs(argv: readonly string[]): ServeArgs {
  const rest: string[] = [];
  let speed = 1;
  let simConfig: string | undefined;
  let host: string | undefined;
  let port: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const f = argv[i]!;
    if (f === '--replay') continue;
    if (f === '--speed' || f === '--sim-config' || f === '--host' || f === '--port') {
      const v = argv[++i];
      if (v === undefined) throw new ConfigError(`${f} needs a value`);
      if (f === '--speed') {
        speed = Number(v);
        if (!/^[0-9]+(\.[0-9]+)?$/.test(v)) throw new ConfigError(`--speed: "${v}" is not a non-negative number`);
      } else if (f === '--sim-config') simConfig = v;
      else if (f === '--host') host = v;
      else {
        port = Number(v);
        if (!/^[0-9]{1,5}$/.test(v) || port > 65535) throw new ConfigError(`--port: "${v}" is not a port number`);
      }
      continue;
    }
    rest.push(f);
  }
  const replay = parseReplayArgs(rest);
  if (replay.format !== 'tardis' && replay.format !== 'gate') throw new ConfigError('--replay serves market data: --format tardis or gate');
  return { replay, speed, ...(simConfig === undefined ? {} : { simConfig }), ...(host === undefined ? {} : { host }), ...(port === undefined ? {} : { port }) };
}

/** Starts the server and the replay; `finished` resolves when the data ends (the server keeps running). */
export async function serveReplay(a: ServeArgs): Promise<{ sim: Simulator; finished: Promise<ServeStats>; stop: () => void }> {
  const cfg = configOf(a.replay);
  const r = a.replay;
  const invalid = invalidRowsOf(r);
  const inputs = r.format === 'tardis' ? await tardisInputs(r.trades!, r.book!, cfg, invalid, r.ticker) : await gateInputs(r.gateKind!, r.trades!, r.book!, cfg, invalid, r.ticker);
  const { trades: T, book: B } = inputs;
  const D = inputs.ticker;
  const perp = isPerp(cfg);
  const { def } = replayDefinition(cfg, B.scales.priceScale, B.scales.amountScale);
  const contract = perp ? perpContract(cfg, B.scales.priceScale, B.scales.amountScale) : undefined;
  const market: MarketConfig = def.markets[0] ?? {
    id: contract!.name, base: contract!.name.split('_')[0]!, quote: contract!.name.split('_')[1]!,
    precision: B.scales.priceScale, amount_precision: B.scales.amountScale, fee: '0.2',
  };
  let tDone = !(await T.fill());
  let bDone = !(await B.fill());
  let dDone = D === undefined || !(await D.fill());
  const first = Math.min(tDone ? Infinity : T.rows.exch[0]!, bDone ? Infinity : B.rows.exch[0]!, dDone ? Infinity : D!.rows.exch[0]!);
  if (!Number.isFinite(first)) throw new ConfigError('--replay: the data files hold no rows');
  const base: SimulatorConfig = a.simConfig === undefined ? DEMO_CONFIG : loadConfigFile(a.simConfig);
  // The replay config's currencies, then the simulator config's; scales keep every fee exact (./replay-currencies.ts).
  const given = [...(cfg.currencies ?? []), ...(base.currencies ?? []).filter((c) => !(cfg.currencies ?? []).some((x) => x.code === c.code))];
  const currencies: CurrencySpec[] = perp
    ? def.currencies.map((c) => ({ ...c, maxSupply: c.maxSupply ?? replayCurrencies(market, given).find((x) => x.code === c.code)?.maxSupply }))
    : replayCurrencies(market, given);
  const big = Object.fromEntries(currencies.map((c) => [c.code, fmtBig(supplyUnits(c) / 8n, c.scale)]));
  const settle = contract?.settle.toUpperCase() ?? '';
  const futuresBig: Record<string, Record<string, string>> = perp ? { futures: { [settle]: big[settle]! } } : {};
  const futuresDemo: Record<string, Record<string, string>> = perp ? { futures: { [settle]: '100000' } } : {};
  const users = (base.users ?? []).filter((u) => u.uid !== MIRROR_LIQUIDITY_UID && u.uid !== MIRROR_TAKER_UID)
    .map((u) => (a.simConfig === undefined ? { ...u, balances: { spot: { [market.quote]: '100000', [market.base]: '10' },
      ...futuresDemo } } : u));
  const simCfg: SimulatorConfig = {
    ...base, currency_pairs: [market], market_maker: false, engine: { runner: 'inline' },
    currencies: currencies.map((c) => ({ code: c.code, scale: c.scale, max_supply: c.maxSupply })),
    clock: { type: 'sim', start_ms: Math.floor(first / 1000) },
    users: [...users, { uid: MIRROR_LIQUIDITY_UID, balances: { spot: big, ...futuresBig } }, { uid: MIRROR_TAKER_UID, balances: { spot: big, ...futuresBig } }],
    chains: undefined,
    // The demo's lending pool and contracts name currencies the replayed market may lack.
    unified: a.simConfig === undefined ? undefined : base.unified,
    futures: perp
      ? { contracts: [contract!], insurance: { [settle]: cfg.contract?.insurance ?? DEFAULT_INSURANCE }, clock: { enabled: false } }
      : a.simConfig === undefined ? undefined : base.futures,
    stp_groups: (base.stp_groups ?? []).map((g) => ({ ...g, users: g.users.filter((u) => users.some((x) => x.uid === u)) })),
  };
  const sim = await startSimulator(simCfg, { host: a.host ?? '127.0.0.1', port: a.port ?? 8080 });
  const clock = sim.simClock!;
  const ex = sim.gateway.exchange;
  const target = perp ? { market: ex.futures.marketOf[0]!, kind: AccountKind.Futures, sub: ex.futures.settleCur[0]! } : undefined;
  const mirror = new BookMirror(sim.gateway, target);
  let driver: PerpDriver | undefined;
  if (target !== undefined) {
    // The mirror's accounts carry the market's side of every fill: cross margin on their whole balance.
    for (const uid of [MIRROR_LIQUIDITY_UID, MIRROR_TAKER_UID]) {
      const c = new Command();
      c.type = CommandType.FuturesSetLeverage; c.uid = uid; c.market = target.market; c.price = 0; c.amount = 0;
      sim.gateway.submit(c, (code) => { if (code !== 0) throw new ConfigError(`--replay: cross margin for ${uid} refused (code ${code})`); });
    }
    driver = new PerpDriver(sim.gateway, [], Number.MAX_SAFE_INTEGER);
  }
  let stopped = false;
  const stats: ServeStats = { rows: 0, batches: 0, levels: 0, trades: 0, clientFills: 0, skipped: NOTHING_SKIPPED };
  /** Moves the clock to `t`, paying each recorded funding time on the way (a perpetual). */
  const advance = (t: number): void => {
    if (driver !== undefined) {
      for (let f = driver.nextFundingUs; f <= t; f = driver.nextFundingUs) {
        clock.advanceTo(Math.max(clock.nowUs(), f));
        driver.fund();
      }
    }
    clock.advanceTo(Math.max(clock.nowUs(), t));
  };
  const drive = async (): Promise<ServeStats> => {
    const wall0 = performance.now();
    let seenSnapshot = false;
    let prevSnap = false;
    while (!stopped) {
      if (!tDone && T.i >= T.count) tDone = !(await T.fill());
      if (!bDone && B.i >= B.count) bDone = !(await B.fill());
      if (!dDone && D!.i >= D!.count) dDone = !(await D!.fill());
      if (tDone && bDone && dDone) break;
      const dl = dDone ? Infinity : D!.rows.local[D!.i]!;
      const useTicker = !dDone && (tDone || dl < T.rows.local[T.i]!) && (bDone || dl < B.rows.local[B.i]!);
      const useTrades = !useTicker && !tDone && (bDone || T.rows.local[T.i]! <= B.rows.local[B.i]!);
      const R = useTicker ? undefined : useTrades ? T : B;
      const exch = R === undefined ? D!.rows.exch[D!.i]! : R.rows.exch[R.i]!;
      if (a.speed > 0) {
        const due = (exch - first) / 1000 / a.speed - (performance.now() - wall0);
        if (due > 1) await sleep(due);
      } else if ((stats.batches & 63) === 0) {
        await yieldNow();
      }
      advance(exch);
      stats.batches++;
      if (R === undefined) {
        driver?.ticker(D!.rows, D!.i);
        D!.i++;
        stats.rows++;
        continue;
      }
      const rows = R.rows;
      let i = R.i;
      const local = rows.local[i]!;
      const snap = rows.flags[i]! & RowFlag.Snapshot;
      if (useTrades) {
        for (; i < R.count && rows.local[i] === local; i++) if (rows.kind[i] === RowKind.Trade) mirror.trade(rows.side[i]!, rows.price[i]!, rows.amount[i]!);
      } else if (snap === 0 && !seenSnapshot) {
        while (i < R.count && (rows.flags[i]! & RowFlag.Snapshot) === 0) i++;
      } else {
        seenSnapshot = true;
        if (snap === 1 && !prevSnap) mirror.reset();
        prevSnap = snap === 1;
        for (; i < R.count && rows.local[i] === local && (rows.flags[i]! & RowFlag.Snapshot) === snap; i++) {
          const price = rows.price[i]!;
          let side = rows.side[i]!;
          let size = rows.amount[i]!;
          if (side === 0) side = mirror.shown(Side.Buy, price) > 0 ? Side.Buy : Side.Sell;
          if ((rows.flags[i]! & DELTA_FLAG) !== 0) size = Math.max(0, mirror.shown(side, price) + size);
          mirror.level(side, price, size);
        }
      }
      stats.rows += i - R.i;
      R.i = i;
    }
    Object.assign(stats, { levels: mirror.stats.levels, trades: mirror.stats.trades, clientFills: mirror.stats.clientFills,
      skipped: invalid?.report() ?? NOTHING_SKIPPED, ...(driver === undefined ? {} : { perpetual: driver.report() }) });
    return stats;
  };
  return { sim, finished: drive(), stop: () => { stopped = true; driver?.close(); } };
}
