/**
 * Order-flow replay of LOBSTER messages through the engine: every visible order is a real order in the real
 * book, so the result is the exact book and ledger the messages imply.
 *
 *   1 add       → a GTC limit order of the passive account (uid 2)
 *   2 cancel    → an amend down by the cancelled shares (keeps queue priority), or a cancel when none remain
 *   3 delete    → a cancel
 *   4 execute   → an IOC of the aggressor account (uid 3) at the order's price for the executed shares; it must
 *                 meet exactly that order (price-time priority), else it is counted in `mismatched_executions`
 *   5, 6, 7     → hidden executions, crosses and halts: counted (no visible book change)
 *
 * Prices are LOBSTER's integer dollars × 10000, so the market has price precision 4 and amount precision 0.
 * Orders that were resting before the file starts are unknown: messages about them are counted in
 * `unknown_orders` and skipped (LOBSTER's orderbook file gives levels, not those orders' identities).
 */
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SimClock } from '../core/clock.js';
import { Command, CommandType } from '../core/command.js';
import type { ExchangeDefinition, MarketConfig } from '../core/exchange/exchange-definition.js';
import { ConfigError } from '../core/invariant.js';
import { EventKind } from '../core/matching/book-events.js';
import { OrderType, Side, TimeInForce } from '../core/matching/order-types.js';
import { ResultCode } from '../core/result-code.js';
import { formatUnits } from '../core/units.js';
import { InlineEngine } from '../engine/inline-engine.js';
import { openChunks } from './csv/chunk-source.js';
import { type InvalidRows, NOTHING_SKIPPED } from './csv/invalid-rows.js';
import { LobsterReader, LobsterType, lobsterFileInfo } from './formats/lobster.js';
import type { Progress } from './progress.js';
import { creditUnits, replayCurrencies, supplyUnits } from './replay-currencies.js';
import type { ReplayConfig } from './replay-config.js';
import { makeReport, type ReplayReport } from './report.js';

const PASSIVE = 2;
const AGGRESSOR = 3;

/** Replays the messages at `path`; with `invalid` (`--skip-invalid`) invalid rows are skipped and counted there. */
export async function replayLobster(path: string, cfg: ReplayConfig, progressSink?: Progress,
  invalid?: InvalidRows): Promise<{ engine: InlineEngine; report: ReplayReport }> {
  const progress = progressSink?.active === true ? progressSink : undefined;
  const info = lobsterFileInfo(basename(path));
  const id = cfg.market?.id ?? `${info.ticker}_USD`;
  const [base, quote] = id.split('_') as [string, string];
  const market: MarketConfig = { id, base, quote, precision: 4, amount_precision: 0, fee: cfg.market?.fee ?? '0', maker_fee_rate: cfg.market?.maker_fee_rate ?? cfg.market?.fee ?? '0' };
  const def: ExchangeDefinition = { currencies: replayCurrencies(market, cfg.currencies), markets: [market], users: [{ uid: PASSIVE }, { uid: AGGRESSOR }] };
  const clock = new SimClock(0);
  const engine = new InlineEngine(def, { clock });
  for (const uid of [PASSIVE, AGGRESSOR]) {
    for (const cur of def.currencies) {
      const code = creditUnits(engine, uid, cur.code, supplyUnits(cur) / 4n);
      if (code !== ResultCode.Ok) throw new ConfigError(`cannot credit ${cur.code} to ${uid} (code ${code})`);
    }
  }
  const c = new Command();
  const ids = new Map<number, number>();
  const O = engine.exchange.orders;
  const counts = { add: 0, cancel: 0, delete: 0, execute: 0, hidden: 0, cross: 0, halt: 0, other: 0 };
  let unknown = 0;
  let mismatched = 0;
  let rejected = 0;
  let messages = 0;
  const r = new LobsterReader(await openChunks(path), path, info.dayStartUs).skipInvalidInto(invalid);
  const fraction = (): number => r.bytesRead / r.fileBytes;
  const t0 = performance.now();
  while (await r.fill()) {
    for (let i = 0; i < r.count; i++) {
      messages++;
      progress?.tick(messages, fraction);
      clock.advanceTo(Math.max(clock.nowUs(), r.time[i]!));
      const type = r.type[i]!;
      const lid = r.orderId[i]!;
      const side = r.dir[i] === 1 ? Side.Buy : Side.Sell;
      c.clear();
      c.market = 0;
      if (type === LobsterType.Add) {
        counts.add++;
        c.type = CommandType.PlaceOrder; c.uid = PASSIVE; c.side = side; c.orderType = OrderType.Limit; c.tif = TimeInForce.Gtc;
        c.price = r.price[i]!; c.amount = r.size[i]!;
        if (engine.submit(c) === ResultCode.Ok) ids.set(lid, c.orderId); else rejected++;
        continue;
      }
      if (type >= LobsterType.ExecuteHidden) {
        if (type === LobsterType.ExecuteHidden) counts.hidden++; else if (type === LobsterType.Cross) counts.cross++; else if (type === LobsterType.Halt) counts.halt++; else counts.other++;
        continue;
      }
      const oid = ids.get(lid);
      const rec = oid === undefined ? -1 : O.find(oid);
      if (oid === undefined || rec < 0 || O.finishAs[rec] !== 0) { unknown++; continue; }
      if (type === LobsterType.Execute) {
        counts.execute++;
        c.type = CommandType.PlaceOrder; c.uid = AGGRESSOR; c.side = side === Side.Buy ? Side.Sell : Side.Buy;
        c.orderType = OrderType.Limit; c.tif = TimeInForce.Ioc; c.price = O.price[rec]!; c.amount = r.size[i]!;
        if (engine.submit(c) !== ResultCode.Ok) { rejected++; continue; }
        const ev = engine.events;
        let hit = false;
        for (let k = 0; k < ev.count; k++) if (ev.kind[k] === EventKind.Fill && ev.makerOrderId[k] === oid) hit = true;
        if (!hit) mismatched++;
      } else {
        const left = O.left[rec]! - r.size[i]!;
        if (type === LobsterType.Cancel) counts.cancel++; else counts.delete++;
        c.uid = PASSIVE; c.orderId = oid;
        if (type === LobsterType.Delete || left <= 0) c.type = CommandType.CancelOrder;
        else { c.type = CommandType.AmendOrder; c.amount = O.filledLots[rec]! + left; }
        if (engine.submit(c) !== ResultCode.Ok) rejected++;
      }
    }
  }
  const wallMs = performance.now() - t0;
  progress?.done(messages);
  const book = engine.books[0]!;
  const px = (v: number): string | null => (v > 0 && Number.isFinite(v) ? formatUnits(v, 4) : null);
  const result = {
    input: { file: basename(path), messages },
    skipped_rows: invalid?.report() ?? NOTHING_SKIPPED,
    market: id,
    messages_by_type: counts, unknown_orders: unknown, mismatched_executions: mismatched, rejected,
    engine_trades: engine.exchange.trades.count, resting_orders: book.size,
    best_bid: px(book.bestBid()), best_ask: px(book.bestAsk()),
    first_time_us: info.dayStartUs, last_time_us: clock.nowUs(),
  };
  return { engine, report: makeReport('lobster', messages, engine.stateHash(), result, wallMs) };
}
