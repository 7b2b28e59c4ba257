/**
 * Two private channels of the perpetual-futures endpoint fed by events outside the order flow (payload, topics
 * and signing as the other private channels: [uid, contract | "!all", …], futures-private-pushes.ts):
 *
 *   futures.autoorders          a price-triggered order (REST /futures/{settle}/price_orders) as Gate's
 *                               FuturesPriceTriggeredOrder (price-orders/futures-price-order-view.ts) with
 *                               `me_order_id` a string and `name: "price_autoorders"` (Gate's push), + `event`:
 *                               `put` when it is created, `finish` when it ends (fired: finish_as succeeded or
 *                               failed; cancelled; expired), once its record is projected (PriceOrderStore.onChange)
 *   futures.reduce_risk_limits  `{cancel_orders, contract, leverage_max, liq_price, maintenance_rate, risk_limit,
 *                               time, time_ms, user}` (figures as numbers) per position row of a user whose risk
 *                               limit went down. The engine never lowers a risk limit on its own (no automatic
 *                               tier reduction), so this fires exactly when a FuturesSetRiskLimit command (REST
 *                               POST /futures/{settle}/positions/{contract}/risk_limit, or the dual_comp form)
 *                               succeeds with a limit below the row's previous one; cancel_orders is always 0
 *                               (a lower limit is refused rather than enforced by cancelling orders). In dual
 *                               mode both rows change: one entry each.
 *
 * Risk limits are remembered per position row (a copy taken at start and updated after each FuturesSetRiskLimit);
 * a row the engine created later started at the contract's base limit, which no limit is below.
 * Costs: one set lookup per command; O(rows of the user in the contract) per risk-limit command.
 */
import { type Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { ResultCode } from '../../core/result-code.js';
import type { ExchangeGateway } from '../../engine/gateway.js';
import { renderPosition } from '../../gate/futures-position-shapes.js';
import { renderFuturesPriceOrder } from '../price-orders/futures-price-order-view.js';
import type { FuturesPriceOrder } from '../price-orders/price-order-store.js';
import { topicOf } from './channels.js';
import { updateFrame } from './envelope.js';
import type { Publisher } from './publisher.js';
import { PushObserver } from './push-observer.js';

export class FuturesAccountPushes extends PushObserver {
  readonly #ex: Exchange;
  readonly #out: Publisher;
  /** Risk limit per position row as of the last FuturesSetRiskLimit seen (undefined: the contract's base). */
  readonly #risk: (bigint | undefined)[];

  constructor(gateway: ExchangeGateway, out: Publisher) {
    super('futures account push');
    this.#ex = gateway.exchange;
    this.#out = out;
    this.#risk = [...this.#ex.futures.positions.riskLimit];
  }

  /** Topics of (channel, settle, contract, uid) that have subscribers: the contract's and `!all`. */
  #topics(channel: string, settle: string, name: string, uid: number): string[] {
    return [`${settle}.${uid}.${name}`, `${settle}.${uid}.!all`].map((key) => topicOf(channel, key)).filter((t) => this.#out.subscribers(t) > 0);
  }

  /** A futures trigger created (`put`) or ended (`finish`). */
  onPriceOrder(o: FuturesPriceOrder, event: 'put' | 'finish', timeUs: number): void {
    if (this.stopped) return;
    const S = this.#ex.futures;
    const c = S.contracts[S.contractOf(o.market)];
    if (c === undefined) return;
    const topics = this.#topics('futures.autoorders', c.settle, c.name, o.uid);
    if (topics.length === 0) return;
    const row = renderFuturesPriceOrder(this.#ex, o);
    // Gate's push names the channel's object and carries the placed order's id as a string.
    const frame = updateFrame('futures.autoorders', [{ ...row, me_order_id: String(row.me_order_id), name: 'price_autoorders', event }], timeUs);
    for (const topic of topics) this.#out.publish(topic, frame);
  }

  override onResult(code: ResultCode, cmd: Command): void {
    if (this.stopped || cmd.type !== CommandType.FuturesSetRiskLimit || code !== ResultCode.Ok) return;
    const S = this.#ex.futures;
    const ci = S.contractOf(cmd.market);
    if (ci < 0) return;
    const c = S.contracts[ci]!;
    const P = S.positions;
    const list: Record<string, unknown>[] = [];
    for (const r of P.rowsOf(cmd.uid, cmd.market)) {
      const before = this.#risk[r] ?? c.riskBase;
      const now = P.riskLimit[r]!;
      this.#risk[r] = now;
      if (now >= before) continue;
      const p = renderPosition(this.#ex, r, 'int');
      list.push({
        cancel_orders: 0, contract: c.name, leverage_max: Number(p.leverage_max), liq_price: Number(p.liq_price),
        maintenance_rate: Number(p.maintenance_rate), risk_limit: Number(p.risk_limit), time: Math.floor(cmd.time / 1e6),
        time_ms: Math.floor(cmd.time / 1000), user: String(cmd.uid),
      });
    }
    if (list.length === 0) return;
    const topics = this.#topics('futures.reduce_risk_limits', c.settle, c.name, cmd.uid);
    if (topics.length === 0) return;
    const frame = updateFrame('futures.reduce_risk_limits', list, cmd.time);
    for (const topic of topics) this.#out.publish(topic, frame);
  }
}
