/**
 * The futures side of a perpetual market-data replay: recorded prices and funding applied to the real futures
 * engine through the engine's own futures services (src/engine/futures), as the live price clock and the
 * control plane's overrides apply them, so every change is an ordinary, hashed command:
 *
 * - each derivative ticker row sets the services' index, mark and funding-rate overrides to the recorded
 *   values (a missing field keeps the last one; before any index, the mark stands for it) and runs a price
 *   step now: a FuturesSetPrices when something changed, then the liquidator's pass when the mark moved (the
 *   services' rule), plus its periodic scan (`liquidation_interval_ms`, default 1 s of replay time);
 * - funding is the replay's, not the services' schedule (scheduledFunding off): when the replay's clock
 *   reaches a recorded `funding_timestamp`, a FuturesFunding at that time with the last rate recorded for it.
 *   The engine pays it only when its own schedule has come (`contract.funding_interval` must match the data's;
 *   a refusal is counted in `funding.refused`, nothing is paid);
 * - commands reach the engine through the host: in a replay, MarketSim.system, so the liquidator's closing order
 *   meets the displayed book as our orders do; in the replay server, the gateway (the book is mirrored there).
 *   The host must answer synchronously (an inline engine).
 *
 * Sampling (every `sample_us`, at batch ends, from the first recorded mark on): mark, and per user equity (futures total + unrealised PnL),
 * margin in use (position + order margin) and position size — floats for the charts only; the report's final
 * figures are exact (settle-currency decimals). Costs: one account-figures scan per user and sample.
 */
import type { Clock } from '../../core/clock.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { Command, CommandType } from '../../core/command.js';
import { crossFigures } from '../../core/futures/account-figures.js';
import { PositionSlot } from '../../core/futures/position-store.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { INSURANCE_UID } from '../../core/ledger/futures-funds.js';
import { ConfigError } from '../../core/invariant.js';
import { ResultCode } from '../../core/result-code.js';
import { formatUnits } from '../../core/units.js';
import { type FuturesHost, FuturesServices } from '../../engine/futures/futures-services.js';
import type { TickerRows } from '../formats/tardis-ticker.js';
import { LIQUIDITY_UID, type MarketSim } from '../market-sim.js';
import { fmtBig } from '../md-accounts.js';
import type { ReplayConfig } from '../replay-config.js';
import { supplyUnits } from '../replay-currencies.js';
import { DEFAULT_INSURANCE } from './perp-definition.js';

const MAX_POINTS = 2000;
const MAX_FUNDINGS = 10_000;
const RATE_SCALE = 8;

export interface FundingEvent { readonly time_us: number; readonly rate: string; readonly applied: boolean; readonly insurance_after: string }

/** Funds the futures accounts: the liquidity account (cross margin, a quarter of the supply), the insurance fund, users. */
export function openPerpBalances(sim: MarketSim, cfg: ReplayConfig, users: readonly number[]): void {
  const ex = sim.engine.exchange;
  const cur = ex.futures.settleCur[0]!;
  const code = ex.currencies[cur]!;
  const spec = ex.definition.currencies.find((c) => c.code === code)!;
  const submit = (c: Command, what: string): void => {
    const rc = sim.submit(c);
    if (rc !== ResultCode.Ok) throw new ConfigError(`${what} (code ${rc})`);
  };
  const credit = (uid: number, units: bigint, what: string): void => {
    const c = new Command();
    c.type = CommandType.Credit; c.uid = uid; c.kind = AccountKind.Futures; c.sub = cur; c.currency = cur;
    if (ex.ledger.isWide(code)) c.text = units.toString(); else c.amount = Number(units);
    submit(c, what);
  };
  const parse = (text: string, what: string): bigint => {
    const v = ex.ledger.parse(code, text);
    if (typeof v === 'number' && v < 0) throw new ConfigError(`${what}: "${text}" is not a valid amount`);
    return BigInt(v);
  };
  const leverage = (uid: number, lev: string, what: string): void => {
    if (!/^[0-9]{1,3}$/.test(lev)) throw new ConfigError(`${what}: "${lev}" is not a leverage (0 for cross)`);
    const c = new Command();
    c.type = CommandType.FuturesSetLeverage; c.uid = uid; c.market = 0; c.price = Number(lev); c.amount = 0;
    submit(c, `${what}: leverage ${lev} refused`);
  };
  credit(LIQUIDITY_UID, supplyUnits(spec) / 4n, 'cannot fund the liquidity account');
  leverage(LIQUIDITY_UID, '0', 'liquidity account');
  const ins = parse(cfg.contract?.insurance ?? DEFAULT_INSURANCE, 'contract.insurance');
  if (ins > 0n) credit(INSURANCE_UID, ins, 'cannot fund the insurance fund');
  const given = cfg.users ?? [{ uid: users[0]!, balances: { [code]: '100000' } }];
  for (const u of given) {
    for (const [c, text] of Object.entries(u.balances ?? {})) {
      if (c !== code) continue;
      const v = parse(text, `users[${u.uid}].balances.${c}`);
      if (v > 0n) credit(u.uid, v, `cannot credit ${c} to ${u.uid}`);
    }
    if (u.leverage !== undefined) leverage(u.uid, u.leverage, `users[${u.uid}].leverage`);
  }
}

export class PerpDriver {
  readonly services: FuturesServices;
  readonly #host: FuturesHost;
  readonly #ex: Exchange;
  readonly #market: number;
  readonly #users: readonly number[];
  readonly #cur: number;
  readonly #scale: number;
  readonly #cmd = new Command();
  #pendingAt = Number.NaN;
  #pendingRate = Number.NaN;
  #rate = Number.NaN;
  #lastApplied = Number.NEGATIVE_INFINITY;
  #haveIndex = false;
  #interval: number;
  #nextSample = -1;
  readonly #insuranceOpen: bigint;
  readonly #peakUsage: number[];
  readonly stats = { ticker_rows: 0, recorded_fundings: 0, applied: 0, refused: 0 };
  readonly fundings: FundingEvent[] = [];
  readonly series: { t: number[]; mark: number[]; equity: number[][]; margin: number[][]; size: number[][] };

  /** The host of a replay's MarketSim: its engine, with the futures services' commands through `system`. */
  static hostOf(sim: MarketSim, clock: Clock): FuturesHost {
    return {
      exchange: sim.engine.exchange, clock,
      submit: (cmd, done) => done(sim.system(cmd)),
      depth: (m, side, limit, prices, lots) => sim.engine.books[m]!.depth(side, limit, prices, lots),
    };
  }

  /** Drives the exchange's one contract (contract 0) through `host` (synchronous); `users` are reported and sampled. */
  constructor(host: FuturesHost, users: readonly number[], sampleUs: number, liquidationIntervalMs = 1000) {
    this.#host = host;
    this.#users = users;
    const ex = host.exchange;
    this.#ex = ex;
    this.#market = ex.futures.marketOf[0]!;
    this.#cur = ex.futures.settleCur[0]!;
    this.#scale = ex.definition.currencies.find((c) => c.code === ex.currencies[this.#cur])!.scale;
    this.services = new FuturesServices(host, { checkMs: 0, scheduledFunding: false, liquidationIntervalMs });
    this.#interval = sampleUs;
    this.#insuranceOpen = ex.ledger.futures.insuranceFund(this.#cur);
    this.#peakUsage = users.map(() => 0);
    this.series = { t: [], mark: [], equity: users.map(() => []), margin: users.map(() => []), size: users.map(() => []) };
  }

  /** Row `i` of a ticker batch, at the replay clock's time: recorded overrides, then the services' due steps. */
  ticker(rows: TickerRows, i: number): void {
    this.stats.ticker_rows++;
    const f = rows.fundingTs[i]!;
    const r = rows.fundingRate[i]!;
    if (!Number.isNaN(r)) this.#rate = r;
    if (!Number.isNaN(f) && f > this.#lastApplied) {
      if (f !== this.#pendingAt) this.#pendingAt = f;
      if (!Number.isNaN(r)) this.#pendingRate = r;
    }
    const mark = rows.mark[i]!;
    let index = rows.index[i]!;
    if (Number.isNaN(index) && !this.#haveIndex && !Number.isNaN(mark)) index = mark;
    if (!Number.isNaN(index)) this.#haveIndex = true;
    if (Number.isNaN(mark) && !this.#haveIndex) return;
    this.services.setRecorded(0, Number.isNaN(index) ? undefined : index, Number.isNaN(mark) ? undefined : mark,
      Number.isNaN(this.#rate) ? undefined : BigInt(this.#rate));
    this.services.poll();
  }

  /** The recorded funding time not yet paid (µs), or NaN. */
  get nextFundingUs(): number {
    return this.#pendingAt;
  }

  /** Pays the pending recorded funding (the replay's clock is at its time). */
  fund(): void {
    const at = this.#pendingAt;
    if (Number.isNaN(at)) return;
    const rate = Number.isNaN(this.#pendingRate) ? 0 : this.#pendingRate;
    this.#pendingAt = Number.NaN;
    this.#pendingRate = Number.NaN;
    this.#lastApplied = at;
    this.stats.recorded_fundings++;
    const c = this.#cmd.clear();
    c.type = CommandType.FuturesFunding; c.market = this.#market; c.iceberg = rate;
    let code: ResultCode | undefined;
    this.#host.submit(c, (rc) => { code = rc; });
    const ok = code === ResultCode.Ok;
    if (ok) this.stats.applied++; else this.stats.refused++;
    if (this.fundings.length < MAX_FUNDINGS) {
      this.fundings.push({ time_us: at, rate: formatUnits(rate, RATE_SCALE), applied: ok,
        insurance_after: fmtBig(this.#ex.ledger.futures.insuranceFund(this.#cur), this.#scale) });
    }
    this.services.poll();
  }

  /** Samples the series when `time` passed the next sample point. */
  sample(time: number): void {
    // Nothing before the first recorded mark: the series start with the prices.
    if (time < this.#nextSample || this.#ex.futures.mark[0] === 0) return;
    this.#nextSample = time + this.#interval;
    const ex = this.#ex;
    const one = 10 ** this.#scale;
    const s = this.series;
    s.t.push(time);
    s.mark.push(ex.futures.mark[0]! / 10 ** ex.futures.contracts[0]!.priceScale);
    this.#users.forEach((u, k) => {
      const f = crossFigures(ex, u, this.#cur);
      const equity = f.total + f.upnl;
      const used = f.positionMargin + f.orderMargin;
      s.equity[k]!.push(Number(equity) / one);
      s.margin[k]!.push(Number(used) / one);
      s.size[k]!.push(this.#size(u));
      if (equity > 0n) this.#peakUsage[k] = Math.max(this.#peakUsage[k]!, Number((used * 1_000_000n) / equity) / 1_000_000);
    });
    if (s.t.length >= MAX_POINTS) {
      const keep = <T>(a: T[]): T[] => a.filter((_, i) => i % 2 === 0);
      s.t = keep(s.t); s.mark = keep(s.mark); s.equity = s.equity.map(keep); s.margin = s.margin.map(keep); s.size = s.size.map(keep);
      this.#interval *= 2;
    }
  }

  #size(uid: number): number {
    const P = this.#ex.futures.positions;
    const r = P.find(uid, this.#market, PositionSlot.Single);
    return r < 0 ? 0 : P.size[r]!;
  }

  /** Stops the services (they keep no timer; this releases their registration). */
  close(): void {
    this.services.close();
  }

  /** The `perpetual` section of the report. @allocates */
  report(): Record<string, unknown> {
    const ex = this.#ex;
    const S = ex.futures;
    const k = S.contracts[0]!;
    const money = (v: bigint): string => fmtBig(v, this.#scale);
    const px = (t: number): string => formatUnits(t, k.priceScale);
    const ours = new Set(this.#users);
    const liqs = S.liquidations.filter((l) => ours.has(l.uid));
    const adl = S.adl.filter((a) => ours.has(a.uid));
    const st = this.services.stats;
    return {
      contract: {
        name: k.name, settle: k.settle, quanto_multiplier: k.spec.quanto_multiplier, leverage_max: k.leverageMax,
        maintenance_rate: k.spec.maintenance_rate, maker_fee_rate: k.spec.maker_fee_rate, taker_fee_rate: k.spec.taker_fee_rate,
        funding_interval: k.fundingInterval,
      },
      prices: { mark: px(S.mark[0]!), index: px(S.index[0]!), ticker_rows: this.stats.ticker_rows, price_updates: st.priceUpdates },
      funding: {
        recorded: this.stats.recorded_fundings, applied: this.stats.applied, refused: this.stats.refused,
        events: this.fundings,
      },
      liquidator: { passes: st.passes, liquidations: st.liquidations, adl: st.adl, book_closes: st.bookCloses },
      services_commands: st.commands,
      insurance: { open: money(this.#insuranceOpen), close: money(ex.ledger.futures.insuranceFund(this.#cur)) },
      users: this.#users.map((u, i) => {
        const a = S.account(u, this.#cur);
        const f = crossFigures(ex, u, this.#cur);
        return {
          uid: u, position: this.#size(u), funding_pnl: money(a.fund), fees: money(-a.fee), realised_pnl: money(a.pnl),
          unrealised_pnl: money(f.upnl), total_pnl: money(a.pnl + a.fund + a.fee + f.upnl), equity: money(f.total + f.upnl),
          margin: { position: money(f.positionMargin), order: money(f.orderMargin), available: money(f.available) },
          max_margin_usage: this.#peakUsage[i]!,
          liquidations: liqs.filter((l) => l.uid === u).length, adl: adl.filter((x) => x.uid === u).length,
        };
      }),
      liquidations: liqs.map((l) => ({ time_us: l.t, uid: l.uid, size: l.size, leverage: l.leverage, margin: l.margin,
        entry_price: l.entryPrice, liq_price: l.liqPrice, mark_price: l.markPrice })),
      adl: adl.map((x) => ({ time_us: x.t, uid: x.uid, trade_size: x.tradeSize, position_size: x.positionSize, fill_price: x.fillPrice })),
      series: { t: this.series.t, mark: this.series.mark,
        users: this.#users.map((u, i) => ({ uid: u, equity: this.series.equity[i]!, margin: this.series.margin[i]!, size: this.series.size[i]! })) },
    };
  }
}
