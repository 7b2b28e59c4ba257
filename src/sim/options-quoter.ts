/**
 * A simple quoter for the options books (config `options.quoter`; the demo turns it on): every `requote_ms` of the
 * engine clock, for each contract that has not expired, one user cancels its quotes and places a bid and an ask
 * of `size` contracts at the model's mark price × (1 ∓ `spread`) (gate/options-shapes.ts modelOf; the bid at
 * least one tick, both on the tick grid). Its orders are ordinary options orders from its options account, so
 * they are journaled, margined and conserved like anyone's; the quoter keeps no state of its own beyond the
 * time of its last pass, and reads its open orders from the exchange (a restart needs nothing else).
 *
 *   "options": { "underlyings": [...], "quoter": { "uid": 10000, "size": 10, "spread": "0.05", "requote_ms": 30000 } }
 *
 * Costs: per pass, per contract, one CancelAll and two PlaceOrder commands; a pass starts only when the previous
 * one's commands were all answered.
 */
import { Command, CommandType } from '../core/command.js';
import type { Exchange } from '../core/exchange/exchange.js';
import { AccountKind } from '../core/ledger/account-kinds.js';
import { OrderType, Side, TimeInForce } from '../core/matching/order-types.js';
import type { ResultCode } from '../core/result-code.js';
import { modelOf } from '../gate/options-shapes.js';

export interface OptionsQuoterConfig {
  readonly uid: number;
  /** Contracts per quote (default 10). */
  readonly size?: number | undefined;
  /** Half spread as a fraction of the mark (default "0.05"). */
  readonly spread?: string | undefined;
  /** Engine-clock ms between passes (default 30000). */
  readonly requote_ms?: number | undefined;
}

export type Submit = (cmd: Command, done: (code: ResultCode) => void) => void;

export class OptionsQuoter {
  readonly #ex: Exchange;
  readonly #submit: Submit;
  readonly #uid: number;
  readonly #size: number;
  readonly #spread: number;
  readonly #everyUs: number;
  #lastUs = Number.NEGATIVE_INFINITY;
  #pending = 0;

  constructor(ex: Exchange, config: OptionsQuoterConfig, submit: Submit) {
    this.#ex = ex;
    this.#submit = submit;
    this.#uid = config.uid;
    this.#size = config.size ?? 10;
    this.#spread = Number(config.spread ?? '0.05');
    this.#everyUs = (config.requote_ms ?? 30_000) * 1000;
  }

  /** Runs a pass when one is due and the previous one is answered; returns the commands it submitted. */
  tick(nowUs: number): number {
    if (this.#pending > 0 || nowUs < this.#lastUs + this.#everyUs) return 0;
    this.#lastUs = nowUs;
    const S = this.#ex.options;
    const cur = S.settleCur[0];
    if (cur === undefined || !this.#ex.ledger.options.hasAccount(this.#uid, cur)) return 0;
    let sent = 0;
    S.contracts.forEach((k, ci) => {
      if (S.settled[ci] !== 0 || nowUs >= k.expiration * 1e6) return;
      const u = S.underlyings[k.u]!;
      const mark = modelOf(this.#ex, ci, nowUs).markTicks;
      const bid = Math.max(u.tick, Math.floor((mark * (1 - this.#spread)) / u.tick) * u.tick);
      const ask = Math.max(bid + u.tick, Math.ceil((mark * (1 + this.#spread)) / u.tick) * u.tick);
      const m = S.marketOf[ci]!;
      const cancel = new Command();
      cancel.type = CommandType.CancelAll;
      cancel.uid = this.#uid; cancel.market = m;
      this.#send(cancel);
      this.#send(this.#order(m, Side.Buy, bid));
      this.#send(this.#order(m, Side.Sell, ask));
      sent += 3;
    });
    return sent;
  }

  #order(market: number, side: number, price: number): Command {
    const c = new Command();
    c.type = CommandType.PlaceOrder;
    c.uid = this.#uid; c.market = market; c.kind = AccountKind.Options; c.sub = 0; c.side = side;
    c.amount = this.#size; c.price = price; c.orderType = OrderType.Limit; c.tif = TimeInForce.Poc;
    return c;
  }

  #send(c: Command): void {
    this.#pending++;
    this.#submit(c, () => { this.#pending--; });
  }
}
