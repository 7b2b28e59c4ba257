/**
 * Market-data replay: trades and depth rows from two streamed readers are merged by receive time
 * (local_timestamp; a trade goes before a depth row of the same time, so the depth update a trade caused is
 * applied after it), grouped into batches (rows of one source sharing a receive time and snapshot flag: one
 * message), applied to the public book at exchange time, and, with a strategy, delivered to it after the feed
 * latency. A run of snapshot rows following non-snapshot rows resets the book (Tardis §3.1; with
 * `snapshots: "each"`, every snapshot message does, for snapshot-only datasets); depth rows
 * before the first snapshot are skipped (counted in `inputs.pre_snapshot_rows`).
 *
 * The exchange time of a batch is its `timestamp`, held non-decreasing (a row stamped earlier than the
 * clock is applied at the clock's time and counted in `inputs.late_rows`). Scheduled strategy events
 * (orders, cancels, notes, timers) run between batches in time order.
 *
 * A perpetual (config `contract`, ./perp/perp-definition.ts) trades on the real futures engine; a third
 * stream, the derivative ticker, merges in by receive time (after trades and depth rows of the same time) and
 * drives its prices, funding and liquidation (./perp/perp-driver.ts). A recorded funding time is paid when the
 * clock reaches it, after the strategy events before it.
 */
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SimClock } from '../core/clock.js';
import type { ExchangeDefinition, MarketConfig } from '../core/exchange/exchange-definition.js';
import { ConfigError } from '../core/invariant.js';
import { Side } from '../core/matching/order-types.js';
import { StateHasher } from '../core/state-hash.js';
import { formatUnits } from '../core/units.js';
import { type InvalidRows, NOTHING_SKIPPED } from './csv/invalid-rows.js';
import { DELTA_FLAG } from './formats/gate.js';
import type { TardisTickerReader } from './formats/tardis-ticker.js';
import type { MdReader } from './formats/md-reader.js';
import { MdAccounts } from './md-accounts.js';
import { RowFlag, RowKind } from './md-rows.js';
import { LIQUIDITY_UID, MarketSim, type OrderNote } from './market-sim.js';
import { LatencyModel } from './models/latency.js';
import type { Progress } from './progress.js';
import { DEFAULT_USER, latencyOf, queueOf, type ReplayConfig } from './replay-config.js';
import { creditUnits, replayCurrencies, supplyUnits } from './replay-currencies.js';
import { makeReport, type ReplayReport } from './report.js';
import type { Strategy } from './strategy.js';
import { StrategyHost } from './strategy-host.js';
import { isPerp, perpDefinition } from './perp/perp-definition.js';
import { openPerpBalances, PerpDriver } from './perp/perp-driver.js';

export interface MdInputs {
  readonly format: string;
  readonly trades: MdReader;
  readonly book: MdReader;
  /** Where both readers count the rows they skip (`--skip-invalid`); absent: strict. */
  readonly invalid?: InvalidRows;
  /** A perpetual's recorded mark, index and funding (Tardis derivative_ticker). */
  readonly ticker?: TardisTickerReader;
}

const BOOK = 1;
const TRADES = 2;

/** Builds the exchange of a replay: one market, the liquidity account and the configured users. */
export function replayDefinition(cfg: ReplayConfig, priceScale: number, amountScale: number): { def: ExchangeDefinition; users: number[] } {
  if (isPerp(cfg)) return perpDefinition(cfg, priceScale, amountScale, LIQUIDITY_UID, DEFAULT_USER);
  const id = cfg.market?.id ?? 'BTC_USDT';
  const [base, quote] = id.split('_');
  if (base === undefined || quote === undefined) throw new ConfigError(`market.id "${id}" is not BASE_QUOTE`);
  const mc = cfg.market ?? {};
  const market: MarketConfig = {
    id, base, quote, precision: mc.price_precision ?? priceScale, amount_precision: mc.amount_precision ?? amountScale,
    fee: mc.fee ?? '0.2', maker_fee_rate: mc.maker_fee_rate ?? mc.fee ?? '0.2',
    ...(mc.min_base_amount === undefined ? {} : { min_base_amount: mc.min_base_amount }),
    ...(mc.min_quote_amount === undefined ? {} : { min_quote_amount: mc.min_quote_amount }),
  };
  const currencies = replayCurrencies(market, cfg.currencies);
  const users = (cfg.users ?? [{ uid: DEFAULT_USER }]).map((u) => u.uid);
  if (users.includes(LIQUIDITY_UID)) throw new ConfigError(`uid ${LIQUIDITY_UID} is reserved for the replayed market`);
  return {
    def: { currencies, markets: [market], users: [LIQUIDITY_UID, ...users].map((uid) => ({ uid })), stp_groups: cfg.stp_groups ?? [] },
    users,
  };
}

function credit(sim: MarketSim, uid: number, currency: string, units: bigint): void {
  const code = creditUnits(sim.engine, uid, currency, units);
  if (code !== 0) throw new ConfigError(`cannot credit ${currency} to ${uid} (code ${code})`);
}

/** The replay's exchange with the configured models, the liquidity account and users funded. @allocates */
export function buildSim(cfg: ReplayConfig, priceScale: number, amountScale: number, clock: SimClock,
  sink: (n: OrderNote) => void): { sim: MarketSim; users: number[] } {
  const { def, users } = replayDefinition(cfg, priceScale, amountScale);
  const sim = new MarketSim(def, clock, { queue: queueOf(cfg), consume: cfg.liquidity_consumption !== false }, sink);
  if (sim.perp) openPerpBalances(sim, cfg, users); else openBalances(sim, cfg, users);
  return { sim, users };
}

function openBalances(sim: MarketSim, cfg: ReplayConfig, users: readonly number[]): void {
  const ex = sim.engine.exchange;
  const spec = ex.markets[0]!.spec;
  for (const cur of ex.definition.currencies) credit(sim, LIQUIDITY_UID, cur.code, supplyUnits(cur) / 4n);
  const given = cfg.users ?? [{ uid: users[0]!, balances: { [spec.quote]: '1000000', [spec.base]: '10' } }];
  for (const u of given) {
    for (const [cur, text] of Object.entries(u.balances ?? {})) {
      const v = ex.ledger.parse(cur, text);
      if (typeof v === 'number' && v < 0) throw new ConfigError(`users[${u.uid}].balances.${cur}: "${text}" is not a valid amount`);
      credit(sim, u.uid, cur, BigInt(v));
    }
  }
}

/** Runs a market-data replay over `inputs`. @allocates */
export async function runMarketReplay(inputs: MdInputs, cfg: ReplayConfig, strategy: Strategy | undefined,
  progressSink?: Progress): Promise<{ report: ReplayReport; sim: MarketSim }> {
  const progress = progressSink?.active === true ? progressSink : undefined;
  const { trades: T, book: B } = inputs;
  const seed = cfg.seed ?? 1;
  const clock = new SimClock(0);
  let host: StrategyHost | undefined;
  const accounts = new MdAccounts(replayDefinition(cfg, B.scales.priceScale, B.scales.amountScale).users, cfg.sample_us ?? 1_000_000);
  const { sim, users } = buildSim(cfg, B.scales.priceScale, B.scales.amountScale, clock, (n) => {
    accounts.note(n);
    host?.onNote(n);
  });
  const def = sim.engine.exchange.definition;
  const lat = latencyOf(cfg);
  const legs = {
    entry: new LatencyModel(lat.entry, 'entry', seed), cancel: new LatencyModel(lat.cancel, 'cancel', seed),
    ack: new LatencyModel(lat.ack, 'ack', seed), feed: new LatencyModel(lat.feed, 'feed', seed),
  };
  accounts.perp = sim.perp;
  accounts.open(sim);
  const perp = sim.perp ? new PerpDriver(PerpDriver.hostOf(sim, clock), users, cfg.sample_us ?? 1_000_000) : undefined;
  const D = inputs.ticker;
  let dDone = D === undefined || !(await D.fill());
  let tickerRows = 0;
  const m = sim.engine.exchange.markets[0]!;
  if (strategy !== undefined) {
    host = new StrategyHost(sim, clock, strategy, legs, { id: m.id, base: m.spec.base, quote: m.spec.quote, priceScale: m.priceScale, amountScale: m.amountScale }, users);
  }
  const st = { preSnapshot: 0, bookRows: 0, tradeRows: 0, batches: 0, resets: 0, late: 0, crossed: 0, volume: 0, notional: 0, lastPrice: Number.NaN, first: -1 };
  const totalBytes = T.fileBytes + B.fileBytes + (D?.fileBytes ?? 0);
  const fraction = (): number => (T.bytesRead + B.bytesRead + (D?.bytesRead ?? 0)) / totalBytes;
  let tDone = !(await T.fill());
  let bDone = !(await B.fill());
  let open = 0;               // 0 none, BOOK or TRADES: the batch being applied
  let openLocal = -1;
  let openSnap = -1;
  let openExch = 0;
  let prevSnap = false;
  let seenSnapshot = false;
  const resetEach = cfg.snapshots === 'each';
  const drainBefore = (t: number): void => { if (host !== undefined) while (host.nextTime() < t) host.runNext(); };
  /** Moves the clock to `t`: strategy events before it, and on a perpetual each recorded funding time on the way. */
  const advance = (t: number): void => {
    if (perp !== undefined) {
      for (let f = perp.nextFundingUs; f <= t; f = perp.nextFundingUs) {
        drainBefore(f);
        clock.advanceTo(Math.max(f, clock.nowUs()));
        perp.fund();
      }
    }
    drainBefore(t);
    clock.advanceTo(t);
  };
  const close = (): void => {
    if (open === 0) return;
    if (open === BOOK) {
      if (openSnap === 1) sim.clampQueues();
      sim.cross();
      if (sim.book.crossed()) st.crossed++;
      accounts.sample(clock.nowUs(), sim, sim.book);
      perp?.sample(clock.nowUs());
    }
    host?.endBatch(openExch, openLocal);
    open = 0;
  };
  const t0 = performance.now();
  for (;;) {
    if (!tDone && T.i >= T.count) tDone = !(await T.fill());
    if (!bDone && B.i >= B.count) bDone = !(await B.fill());
    if (!dDone && D!.i >= D!.count) dDone = !(await D!.fill());
    if (tDone && bDone && dDone) break;
    if (!dDone && perp !== undefined) {
      const dl = D!.rows.local[D!.i]!;
      if ((tDone || dl < T.rows.local[T.i]!) && (bDone || dl < B.rows.local[B.i]!)) {
        close();
        const rx = D!.rows.exch[D!.i]!;
        if (rx < clock.nowUs()) st.late++;
        advance(Math.max(rx, clock.nowUs()));
        if (st.first < 0) {
          st.first = clock.nowUs();
          host?.strategy.onStart?.(host.ctx);
        }
        perp.ticker(D!.rows, D!.i);
        perp.sample(clock.nowUs());
        D!.i++;
        tickerRows++;
        progress?.tick(st.bookRows + st.tradeRows + tickerRows, fraction);
        continue;
      }
    }
    const useTrades = !tDone && (bDone || T.rows.local[T.i]! <= B.rows.local[B.i]!);
    const R = useTrades ? T : B;
    const rows = R.rows;
    let i = R.i;
    const local = rows.local[i]!;
    const snap = rows.flags[i]! & RowFlag.Snapshot;
    const kind = useTrades ? TRADES : BOOK;
    if (kind === BOOK && snap === 0 && !seenSnapshot) {
      // Updates buffered before the first snapshot (Tardis: after a reconnect) describe no known book.
      while (i < R.count && (rows.flags[i]! & RowFlag.Snapshot) === 0) i++;
      st.preSnapshot += i - R.i;
      R.i = i;
      continue;
    }
    if (kind === BOOK) seenSnapshot = true;
    if (open !== kind || openLocal !== local || (kind === BOOK && openSnap !== snap)) {
      close();
      const exch = Math.max(rows.exch[i]!, clock.nowUs());
      if (rows.exch[i]! < clock.nowUs()) st.late++;
      advance(exch);
      if (st.first < 0) {
        st.first = exch;
        host?.strategy.onStart?.(host.ctx);
      }
      open = kind; openLocal = local; openSnap = snap; openExch = exch;
      st.batches++;
      if (kind === BOOK) {
        const reset = snap === 1 && (!prevSnap || resetEach);
        prevSnap = snap === 1;
        if (reset) { sim.resetBook(); st.resets++; }
        host?.beginBatch(BOOK, reset);
      } else {
        host?.beginBatch(TRADES, false);
      }
    }
    const n = R.count;
    if (kind === BOOK) {
      for (; i < n && rows.local[i] === local && (rows.flags[i]! & RowFlag.Snapshot) === snap; i++) {
        const price = rows.price[i]!;
        let side = rows.side[i]!;
        let size = rows.amount[i]!;
        if (side === 0) side = sim.book.sizeAt(Side.Buy, price) > 0 ? Side.Buy : Side.Sell;
        if ((rows.flags[i]! & DELTA_FLAG) !== 0) size = Math.max(0, sim.book.sizeAt(side, price) + size);
        sim.depth(side, price, size);
        host?.row(side, price, size, openExch);
      }
      st.bookRows += i - R.i;
    } else {
      for (; i < n && rows.local[i] === local; i++) {
        const p = rows.price[i]!;
        const a = rows.amount[i]!;
        if (rows.kind[i] !== RowKind.Trade) continue;
        st.volume += a; st.notional += p * a; st.lastPrice = p;
        sim.trade(rows.side[i]!, p, a);
        host?.row(rows.side[i]!, p, a, openExch);
      }
      st.tradeRows += i - R.i;
    }
    R.i = i;
    progress?.tick(st.bookRows + st.tradeRows, fraction);
  }
  close();
  if (host !== undefined) {
    host.dataEnded = true;
    for (let k = 0; k < 10_000_000 && host.nextTime() < Number.POSITIVE_INFINITY; k++) host.runNext();
    host.strategy.onEnd?.(host.ctx);
  }
  perp?.close();
  const wallMs = performance.now() - t0;
  const events = st.bookRows + st.tradeRows + tickerRows;
  progress?.done(events);
  const bookHash = sim.book.stateHash();
  const stateHash = new StateHasher().addString(sim.engine.stateHash()).addString(bookHash).digest();
  const px = (v: number): string | null => (Number.isFinite(v) ? formatUnits(v, m.priceScale) : null);
  const lotsTxt = (v: number): string => formatUnits(v, m.amountScale);
  const bid = sim.book.best(Side.Buy);
  const ask = sim.book.best(Side.Sell);
  const mark = Number.isFinite(bid) && Number.isFinite(ask) ? Math.floor((bid + ask) / 2) : st.lastPrice;
  const top = sim.book.top(5);
  const result = {
    inputs: {
      trades: { file: basename(T.path), rows: st.tradeRows }, book: { file: basename(B.path), rows: st.bookRows, snapshot_resets: st.resets },
      batches: st.batches, pre_snapshot_rows: st.preSnapshot, late_rows: st.late, crossed_batches: st.crossed,
      first_time_us: Math.max(0, st.first), last_time_us: clock.nowUs(),
      ...(D === undefined ? {} : { ticker: { file: basename(D.path), rows: tickerRows } }),
    },
    skipped_rows: inputs.invalid?.report() ?? NOTHING_SKIPPED,
    market: def.markets[0] === undefined
      // A perpetual: sizes are contracts (amount precision 0); fee rates are the contract's fractions.
      ? { id: m.id, type: 'perpetual', price_precision: m.priceScale, amount_precision: m.amountScale,
        maker_fee_rate: def.futures!.contracts[0]!.maker_fee_rate, taker_fee_rate: def.futures!.contracts[0]!.taker_fee_rate }
      : { id: m.id, price_precision: m.priceScale, amount_precision: m.amountScale, fee: def.markets[0].fee, maker_fee_rate: def.markets[0].maker_fee_rate },
    models: {
      queue: cfg.queue?.model ?? 'conservative', ...(cfg.queue?.model === 'probabilistic' ? { queue_power: cfg.queue.power ?? 3 } : {}),
      liquidity_consumption: cfg.liquidity_consumption !== false, seed,
      latency: { entry: legs.entry.stats(), cancel: legs.cancel.stats(), ack: legs.ack.stats(), feed: legs.feed.stats() },
    },
    strategy: strategy === undefined ? null : (cfg.strategy?.module ?? 'given'),
    public: {
      trades: st.tradeRows, volume: lotsTxt(st.volume), vwap: st.volume === 0 ? null : Number((st.notional / st.volume / 10 ** m.priceScale).toPrecision(12)),
      last_price: px(st.lastPrice), best_bid: px(bid), best_ask: px(ask),
      levels: { bids: sim.book.levels(Side.Buy), asks: sim.book.levels(Side.Sell) },
      top: { bids: top.bids.map(([p, s]) => [px(p), lotsTxt(s)]), asks: top.asks.map(([p, s]) => [px(p), lotsTxt(s)]) },
      book_hash: bookHash,
    },
    execution: {
      ...sim.stats,
      mean_queue_ahead_at_rest: sim.stats.rested === 0 ? 0 : Number((sim.stats.queue_ahead_at_rest_sum / sim.stats.rested / 10 ** m.amountScale).toPrecision(10)),
      engine_commands: sim.engine.sequencer.lastSeq, engine_trades: sim.engine.exchange.trades.count,
    },
    users: accounts.report(sim, mark),
    series: { t: accounts.series.t, mid: accounts.series.mid.map((v) => v / 10 ** m.priceScale),
      users: users.map((u, k) => ({ uid: u, base: accounts.series.base[k]!, quote: accounts.series.quote[k]! })) },
    fills: accounts.fills, fills_not_listed: accounts.fillsDropped,
    ...(perp === undefined ? {} : { perpetual: perp.report() }),
  };
  sim.engine.assertInvariants();
  return { report: makeReport(inputs.format, events, stateHash, result, wallMs), sim };
}
